package analyze

import (
	"math"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// The batch-throughput view: a case that declares the work one
// operation completes (--work-units) also gets its throughput, work units
// per second, and a comparison of two such cases the contender's
// throughput relative to the reference's as a direction-aware improvement
// (positive: more work per second). Both follow from the time statistics:
// throughput is a monotone function of the mean time per operation, and
// the throughput ratio is the speedup times the ratio of work units, so
// the intervals carry over exactly.

// throughput is the view of summary s of case c, nil without work units.
func (d *runData) throughput(c int, s *ndjson.Summary) *ndjson.Throughput {
	w := d.run.Cases[c].WorkUnits
	if w <= 0 || !(s.Mean > 0) {
		return nil
	}
	per := func(ns float64) float64 {
		if ns <= 0 {
			return math.Inf(1)
		}
		return w / ns * 1e9
	}
	return &ndjson.Throughput{WorkUnits: w, UnitsPerSec: per(s.Mean), CI: [2]float64{per(s.MeanCI[1]), per(s.MeanCI[0])}}
}

// throughputChange is the view of comparison k of case c against case 0,
// nil unless both declare work units.
func (d *runData) throughputChange(c int, k *ndjson.Comparison) *ndjson.ThroughputChange {
	wr, wc := d.run.Cases[0].WorkUnits, d.run.Cases[c].WorkUnits
	if wr <= 0 || wc <= 0 {
		return nil
	}
	speedup := k.Speedup
	if speedup == 0 { // the legacy estimator decides on the geometric mean
		speedup = k.GeoSpeedup
	}
	ratio := wc / wr
	imp := func(s float64) float64 { return 100 * (s*ratio - 1) }
	t := &ndjson.ThroughputChange{ImprovementPct: imp(speedup), CI: [2]float64{imp(k.SpeedupCI[0]), imp(k.SpeedupCI[1])}}
	switch v := stats.Classify(-t.CI[1], -t.CI[0], k.ThresholdPct); v {
	case stats.ContenderFaster:
		t.Verdict = stats.ContenderBetter.String()
	case stats.ReferenceFaster:
		t.Verdict = stats.ReferenceBetter.String()
	case stats.Equivalent:
		t.Verdict = stats.AxisEquivalent.String()
	default:
		t.Verdict = stats.AxisInconclusive.String()
	}
	return t
}
