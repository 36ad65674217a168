package ndjson

import (
	"strings"
	"testing"
)

// TestIntervalChoiceValidate: an unknown status is refused, and so is a
// directional verdict beside insufficient evidence.
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
