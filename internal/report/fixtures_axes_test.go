package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The axes fixture holds two schema 1.1 runs whose samples carry axes and
// telemetry: a two-case paired run on a host without a hardware PMU and a
// three-case rounds run whose wall time alone would say little. Summaries
// and comparisons are written the way fb-analyze writes them; the numbers
// of the summaries are taken from the generated samples.

// AxisInfo is a catalogue axis as a run records it.
func axisInfo(name string, status axes.Status, reason string) ndjson.AxisInfo {
	a, ok := axes.Lookup(name)
	if !ok {
		panic("fixture: no axis " + name)
	}
	return ndjson.AxisInfo{Name: a.Name, Unit: a.Unit, Family: a.Family, Scope: a.Scope,
		Attribution: a.Attribution, Direction: string(a.Direction), Normalization: string(a.Normalization),
		Status: string(status), Reason: reason}
}

// axisSampler gives one sample's axis values and telemetry.
type axisSampler func(s *ndjson.Sample, rng *rand.Rand) (map[string]ndjson.AxisValue, *ndjson.Telemetry)

// withAxes fills the axis values and telemetry of every sample in recs.
func withAxes(recs []ndjson.Record, seed uint64, f axisSampler) []*ndjson.Sample {
	rng := rand.New(rand.NewPCG(seed, seed+7))
	var out []*ndjson.Sample
	for _, r := range recs {
		s := r.(*ndjson.Sample)
		s.Axes, s.Tele = f(s, rng)
		out = append(out, s)
	}
	return out
}

func unavailable(st axes.Status, reason string) ndjson.AxisValue {
	return ndjson.AxisValue{S: string(st), R: reason}
}

// around is v with relative noise sd, rounded to step.
func around(rng *rand.Rand, v, sd, step float64) float64 {
	return math.Round(v*(1+sd*rng.NormFloat64())/step) * step
}

// fixtureStats are the distribution facts of x, with an approximate
// normal interval of the mean clamped to the data.
func fixtureStats(x []float64) *ndjson.AxisStats {
	s := slices.Clone(x)
	slices.Sort(s)
	at := func(p float64) float64 { return s[int(math.Ceil(p*float64(len(s))))-1] }
	var sum, sq float64
	for _, v := range s {
		sum += v
	}
	mean := sum / float64(len(s))
	for _, v := range s {
		sq += (v - mean) * (v - mean)
	}
	half := 1.96 * math.Sqrt(sq/float64(len(s)-1)/float64(len(s)))
	r4 := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
	return &ndjson.AxisStats{Min: s[0], Median: at(0.5), Mean: r4(mean), P95: at(0.95), P99: at(0.99),
		Max: s[len(s)-1], MeanCI: [2]float64{r4(max(mean-half, s[0])), r4(min(mean+half, s[len(s)-1]))}}
}

// caseSamples are the samples of case c.
func caseSamples(samples []*ndjson.Sample, c int) []*ndjson.Sample {
	var out []*ndjson.Sample
	for _, s := range samples {
		if s.Case == c {
			out = append(out, s)
		}
	}
	return out
}

// timingSummary is case c's timing summary with its axes and telemetry.
func timingSummary(run *ndjson.Run, samples []*ndjson.Sample, c int, iter int64) *ndjson.Summary {
	mine := caseSamples(samples, c)
	var ops []float64
	for _, s := range mine {
		ops = append(ops, s.OpNS)
	}
	st := fixtureStats(ops)
	sum := &ndjson.Summary{RunID: run.RunID, Case: c, Name: run.Cases[c].Name, N: len(ops),
		Min: st.Min, Median: st.Median, Mean: st.Mean, P95: st.P95, P99: st.P99, Max: st.Max,
		SD:  math.Round((st.MeanCI[1] - st.MeanCI[0]) / 3.92 * math.Sqrt(float64(len(ops)))),
		MAD: math.Round(st.Median * 0.011), MeanCI: st.MeanCI, BlockLen: 2, Lag1: 0.06,
		Outliers: ndjson.Outliers{HighMild: 1}, MedianBatchNS: st.Median * float64(iter),
		Iterations: iter, FloorNS: 1 / float64(iter), TimedNS: int64(float64(len(ops)) * st.Median * float64(iter))}
	sum.CVPct = math.Round(sum.SD/sum.Mean*1e4) / 100
	sum.Axes = axisSummaries(run, mine, st)
	sum.Telemetry = telemetrySummary(mine)
	return sum
}

// axisSummaries summarize every axis of one case, wall time first, with
// fb-analyze's statuses and reasons.
func axisSummaries(run *ndjson.Run, mine []*ndjson.Sample, wall *ndjson.AxisStats) []ndjson.AxisSummary {
	out := []ndjson.AxisSummary{{Name: axes.Wall, Unit: "ns/op", Status: string(axes.Collected), N: len(mine), Stats: wall}}
	for _, info := range run.Axes[1:] {
		var vals []float64
		var failed *ndjson.AxisValue
		for _, s := range mine {
			if v := s.Axes[info.Name]; v.V != nil {
				vals = append(vals, *v.V)
			} else if failed == nil {
				failed = &v
			}
		}
		a := ndjson.AxisSummary{Name: info.Name, Unit: info.Unit, Status: string(axes.Collected),
			N: len(vals), Missing: len(mine) - len(vals)}
		if failed != nil {
			a.Status, a.Reason = failedStatus(info, failed, a.N, len(mine))
		}
		if len(vals) > 0 {
			a.Stats = fixtureStats(vals)
		}
		out = append(out, a)
	}
	return out
}

func failedStatus(info ndjson.AxisInfo, v *ndjson.AxisValue, n, total int) (string, string) {
	reason := v.R
	if reason == "" {
		reason = info.Reason
	}
	why := axes.Status(v.S).Text() + ": " + reason
	if n == 0 {
		return v.S, why
	}
	return string(axes.PartiallyCollected), fmt.Sprintf("%d of %d samples have no value: %s", total-n, total, why)
}

// telemetrySummary condenses the telemetry of one case's samples.
func telemetrySummary(mine []*ndjson.Sample) *ndjson.TelemetrySummary {
	t := &ndjson.TelemetrySummary{}
	var sum float64
	for _, s := range mine {
		t.CPUSeries = append(t.CPUSeries, s.Tele.CPUPct)
		t.RSSSeries = append(t.RSSSeries, float64(s.Tele.RSSBytes))
		t.CPUPctPeak = max(t.CPUPctPeak, s.Tele.CPUPct)
		t.RSSPeakBytes = max(t.RSSPeakBytes, s.Tele.RSSBytes)
		sum += s.Tele.CPUPct
	}
	t.CPUPctMean = math.Round(sum/float64(len(mine))*100) / 100
	t.RSSFirst, t.RSSLast = mine[0].Tele.RSSBytes, mine[len(mine)-1].Tele.RSSBytes
	return t
}

// axisOutcome is a comparison's result on one axis, as fb-analyze found it.
type axisOutcome struct {
	name           string
	abs            bool
	change, lo, hi float64
	verdict        string
}

// comparisonAxesOf builds a comparison's axes: wall time from the timing
// comparison, the rest from the outcomes, and an unavailable record for
// every axis either side lacks in some sample.
func comparisonAxesOf(run *ndjson.Run, k *ndjson.Comparison, ref, con *ndjson.Summary, outcomes []axisOutcome) []ndjson.AxisComparison {
	wallVerdict := string(k.Verdict)
	switch k.Verdict {
	case ndjson.VerdictContenderFaster:
		wallVerdict = "contender better"
	case ndjson.VerdictReferenceFaster:
		wallVerdict = "reference better"
	}
	outcomes = append([]axisOutcome{{name: axes.Wall, change: k.ChangePct, lo: k.ChangeCI[0], hi: k.ChangeCI[1],
		verdict: wallVerdict}}, outcomes...)
	var out []ndjson.AxisComparison
	for i, info := range run.Axes {
		a := ndjson.AxisComparison{Name: info.Name, Unit: info.Unit, Direction: info.Direction,
			Scope: info.Scope, Attribution: info.Attribution}
		if side, sum := lacking(ref, con, i); sum != nil {
			a.Status, a.Reason = sum.Status, run.Cases[side].Name+": "+sum.Reason
			out = append(out, a)
			continue
		}
		o := outcomeFor(outcomes, info.Name)
		method := "relative ratio"
		if o.abs {
			method = "absolute difference"
		}
		a.Available, a.Status = true, string(axes.Collected)
		a.Result = &ndjson.AxisResult{Method: method, N: k.Pairs, RefMedian: ref.Axes[i].Stats.Median,
			ConMedian: con.Axes[i].Stats.Median, Change: o.change, CI: [2]float64{o.lo, o.hi},
			BlockLen: k.BlockLen, Verdict: o.verdict}
		out = append(out, a)
	}
	return out
}

// lacking is the first side whose axis i is not collected, and its summary.
func lacking(ref, con *ndjson.Summary, i int) (int, *ndjson.AxisSummary) {
	for _, s := range []*ndjson.Summary{ref, con} {
		if s.Axes[i].Status != string(axes.Collected) {
			return s.Case, &s.Axes[i]
		}
	}
	return 0, nil
}

func outcomeFor(outcomes []axisOutcome, name string) axisOutcome {
	for _, o := range outcomes {
		if o.name == name {
			return o
		}
	}
	panic("fixture: no outcome for axis " + name)
}

func axesFixtureRecords() []ndjson.Record {
	return append(axesPairRun(), axesRoundsRun()...)
}

// axesFixtureStream is the axes fixture as an NDJSON stream.
func axesFixtureStream(t *testing.T) []byte { return streamOf(t, axesFixtureRecords()) }

// axesFixtureRuns loads the axes fixture stream.
func axesFixtureRuns(t *testing.T) []*model.Run {
	return loadFixture(t, axesFixtureStream(t), "fixture-axes.ndjson")
}

// allRuns are every fixture: the schema 1.0-style runs, the axes runs,
// then the environment runs.
func allRuns(t *testing.T) []*model.Run {
	return append(append(fixtureRuns(t), axesFixtureRuns(t)...), envFixtureRuns(t)...)
}
