package analyze

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// AABuilder gathers the comparisons of A/A runs (fb-pair --aa: one
// command against itself, run config.aa) by series, for the aa records
// written after every input. A nil *AABuilder gathers nothing.
type AABuilder struct {
	series []*aaSeries
}

type aaSeries struct {
	id, command string
	mode        ndjson.Mode
	planned     int
	runIDs      []string
	comparisons []*ndjson.Comparison
}

// NewAABuilder returns an empty builder.
func NewAABuilder() *AABuilder { return &AABuilder{} }

// add takes one analysed run's first comparison when the run is part of a
// series.
func (b *AABuilder) add(d *runData, recs []ndjson.Record) {
	aa := d.run.Config.AA
	if b == nil || aa == nil {
		return
	}
	s := b.find(aa.Series)
	if s == nil {
		s = &aaSeries{id: aa.Series, command: d.run.Cases[0].Command, mode: d.run.Mode, planned: aa.Runs}
		b.series = append(b.series, s)
	}
	for _, rec := range recs {
		if k, ok := rec.(*ndjson.Comparison); ok && k.Reference == 0 && k.Contender == 1 {
			s.runIDs, s.comparisons = append(s.runIDs, d.run.RunID), append(s.comparisons, k)
			return
		}
	}
}

func (b *AABuilder) find(id string) *aaSeries {
	for _, s := range b.series {
		if s.id == id {
			return s
		}
	}
	return nil
}

// Records are the aa records of every series that has a compared run.
func (b *AABuilder) Records(opt Options) []*ndjson.AA {
	if b == nil {
		return nil
	}
	var out []*ndjson.AA
	for _, s := range b.series {
		if len(s.comparisons) > 0 {
			out = append(out, s.record(opt))
		}
	}
	return out
}

// record summarizes one series: its verdicts, false alarms with their
// rate's exact interval, intervals excluding zero, widths and sizes.
func (s *aaSeries) record(opt Options) *ndjson.AA {
	rec := &ndjson.AA{Series: s.id, Command: s.command, Mode: s.mode, Planned: s.planned, Runs: len(s.comparisons),
		RunIDs: s.runIDs, Verdicts: map[string]int{}, ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct}
	var changes, widths, slopes []float64
	for _, k := range s.comparisons {
		rec.Verdicts[string(k.Verdict)]++
		if k.Verdict == ndjson.VerdictContenderFaster || k.Verdict == ndjson.VerdictReferenceFaster {
			rec.False++
		}
		if k.ChangeCI[0] > 0 || k.ChangeCI[1] < 0 {
			rec.ExcludeZero++
		}
		changes, widths = append(changes, k.ChangePct), append(widths, k.ChangeCI[1]-k.ChangeCI[0])
		rec.MaxAbsChangePct = math.Max(rec.MaxAbsChangePct, math.Abs(k.ChangePct))
		if z := k.Sizes; z != nil {
			if sizesDiffer(z) {
				rec.UnequalSizes++
			}
			if z.SizeSlope != nil {
				slopes = append(slopes, z.PerDoublingPct)
				if z.Significant {
					rec.SizeSignificant++
				}
			}
		}
	}
	rec.MedianChangePct, rec.MedianWidthPct = stats.Median(changes), stats.Median(widths)
	if len(slopes) > 0 {
		m := stats.Median(slopes)
		rec.SizeMedianPct = &m
	}
	rec.FalseRateCI = clopperPearson(rec.False, rec.Runs, opt.Confidence)
	if s, ci, ok := Scatter(changes, widths, opt.Confidence); ok {
		rec.Spread, rec.SpreadCI = &s, &ci
	}
	return rec
}

// Scatter is how far the changes of A/A runs scatter against the widths
// of their own intervals: the root mean square of change/se over the runs,
// se the half-width over the normal quantile of confidence, with its
// interval at confidence. For calibrated intervals each ratio is about a standard
// normal value, so the sum of squares is chi-square with one degree of
// freedom per run, and s·sqrt(n/q) for the chi-square quantiles q bound
// the true scatter. A count of intervals excluding zero says the same
// coarsely: 20 runs can hold 0 to 3 exclusions by chance either way,
// while a spread of 1.5 in 20 runs lies outside [0.7, 1.3], the range of
// calibrated ones. Runs of zero width are left out; fewer than two left
// give no spread.
func Scatter(changes, widths []float64, confidence float64) (float64, [2]float64, bool) {
	z := distuv.UnitNormal.Quantile(1 - (100-confidence)/200)
	var ss float64
	n := 0
	for i, c := range changes {
		if widths[i] <= 0 || math.IsNaN(c) {
			continue
		}
		r := c / (widths[i] / 2 / z)
		ss += r * r
		n++
	}
	if n < 2 {
		return 0, [2]float64{}, false
	}
	s := math.Sqrt(ss / float64(n))
	a := (100 - confidence) / 200
	chi := distuv.ChiSquared{K: float64(n)}
	return s, [2]float64{s * math.Sqrt(float64(n)/chi.Quantile(1-a)), s * math.Sqrt(float64(n)/chi.Quantile(a))}, true
}

// clopperPearson is the exact two-sided interval of a binomial rate, k of
// n, at confidence percent.
func clopperPearson(k, n int, confidence float64) [2]float64 {
	a := (100 - confidence) / 200
	lo, hi := 0.0, 1.0
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(a)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - a)
	}
	return [2]float64{lo, hi}
}

// WriteAA writes the aa record of every series b gathered.
func WriteAA(w *ndjson.Writer, b *AABuilder, opt Options) error {
	for _, rec := range b.Records(opt) {
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

// inAASeries reports whether a run belongs to an A/A series, whose runs
// are not a suite of benchmarks.
func inAASeries(d *runData) bool { return d.run.Config.AA != nil }
