package ndjson

import (
	"strings"
	"testing"
)

// TestIntervalChoiceValidate: an unknown status is refused, and so is a
// directional verdict beside insufficient evidence, and a short-series
// account with a coefficient outside [-1, 1], a narrowing or negative
// pairs.
func TestIntervalChoiceValidate(t *testing.T) {
	base := Comparison{Pairs: 20, BlockLen: 1, GeoSpeedup: 1, SpeedupCI: [2]float64{0.9, 1.1}, ChangeCI: [2]float64{-9, 11},
		ConfidencePct: 95, ThresholdPct: 1, Verdict: VerdictInconclusive}
	for _, c := range []struct {
		verdict Verdict
		choice  IntervalChoice
		want    string
	}{
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: IntervalOK, EffectivePairs: 20}, ""},
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: IntervalInsufficient, Reason: "r", EffectivePairs: 2}, ""},
		{VerdictContenderFaster, IntervalChoice{Method: IntervalBlocks, Status: IntervalInsufficient, Reason: "r"}, `verdict is "contender faster" but interval.status is "insufficient evidence"`},
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: "maybe"}, `interval.status is "maybe"`},
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: IntervalOK, EffectivePairs: -1}, "interval.effective_pairs"},
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: IntervalOK, EffectivePairs: 12,
			Short: &ShortSeries{Lag1Bound: 0.41, EffectivePairsBound: 8.4, Widening: 1.21}}, ""},
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: IntervalOK, EffectivePairs: 12,
			Short: &ShortSeries{Lag1Bound: 0.41, EffectivePairsBound: 8.4, Widening: 0.9}}, "interval.short_series.widening is 0.9"},
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: IntervalOK, EffectivePairs: 12,
			Short: &ShortSeries{Lag1Bound: 1.5, EffectivePairsBound: 8.4, Widening: 1}}, "interval.short_series.lag1_bound is 1.5"},
		{VerdictInconclusive, IntervalChoice{Method: IntervalBlocks, Status: IntervalOK, EffectivePairs: 12,
			Short: &ShortSeries{Lag1Bound: 0.4, EffectivePairsBound: -2, Widening: 1}}, "interval.short_series.effective_pairs_bound"},
	} {
		k := base
		k.Verdict, k.Interval = c.verdict, &c.choice
		err := k.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.choice, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v with verdict %q: error %v, want %q", c.choice, c.verdict, err, c.want)
		}
	}
}
