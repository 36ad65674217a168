package collect

import (
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// With four cases a decision rule's looks judge each of the three time
// comparisons at its Bonferroni share of the error rate, spent over the
// looks, and the run record says so; two cases keep the whole of it.
func TestUntilDecisionSharesTheFamilyErrorRate(t *testing.T) {
	for _, c := range []struct {
		k, m int
	}{{2, 1}, {4, 3}} {
		clk := &fakeClock{}
		cfg := fixedConfig
		cfg.Until = Until{Rule: "decision", MaxTime: 10 * time.Second, Confidence: 95}
		ops := make([]*fakeOp, c.k)
		for i := range ops {
			ops[i] = &fakeOp{clk: clk, perOp: 1_000_000}
		}
		e, buf := autoEngine(cfg, ops...)
		j := &scriptedJudge{verdicts: []ndjson.Verdict{"inconclusive", "reference faster"}, widths: []float64{3, 2}}
		e.Judge = j.judge
		e.Run.Config.Until = &ndjson.Until{Rule: "decision", ConfidencePct: 95, Spending: "linear"}
		if _, err := e.Collect(); err != nil {
			t.Fatal(err)
		}
		s := readStream(t, buf.Bytes())
		if len(j.levels) < 2 {
			t.Fatalf("k=%d: %d looks judged, want 2", c.k, len(j.levels))
		}
		alpha := 5.0 / float64(c.m)
		prev := 0.0
		for i, l := range s.looks {
			if !l.Spent {
				continue
			}
			want := 100 - alpha*(l.Fraction-prev)
			if d := l.ConfidencePct - want; d > 1e-6 || d < -1e-6 {
				t.Errorf("k=%d look %d at %v%%, want %v%% (alpha %v%% over %d comparisons)", c.k, i, l.ConfidencePct, want, alpha, c.m)
			}
			prev = l.Fraction
		}
		spending := s.runs[0].Config.Until.Spending
		if got := strings.Contains(spending, "Bonferroni share"); got != (c.m > 1) {
			t.Errorf("k=%d: spending %q", c.k, spending)
		}
	}
}

func TestPerComparison(t *testing.T) {
	for _, c := range []struct {
		m    int
		want float64
	}{{0, 95}, {1, 95}, {3, 98.333333333}, {15, 99.666666667}} {
		if got := (Until{Confidence: 95, Comparisons: c.m}).perComparison(); got != c.want {
			t.Errorf("m=%d: %v, want %v", c.m, got, c.want)
		}
	}
}
