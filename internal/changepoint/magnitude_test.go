package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRatioCIByHand: a known pair of segments gives the t interval of the
// log ratio of their means.
func TestRatioCIByHand(t *testing.T) {
	before, after := []float64{1, 1.02, 0.98}, []float64{1.1, 1.12, 1.08}
	ci := ratioCI(before, after, 95)
	// Both means exact (1, 1.1), each variance 0.0004: se² = 0.0004/3 + 0.0004/(3·1.21).
	se := math.Sqrt(0.0004/3 + 0.0004/(3*1.21))
	a, b := 0.0004/(3*1.21), 0.0004/3
	df := (a + b) * (a + b) / (a*a/2 + b*b/2)
	if df < 3.9 || df > 4 {
		t.Fatalf("df %g", df)
	}
	// t(0.975) for df between 3.9 and 4 is about 2.78.
	lo, hi := (1.1*math.Exp(-2.79*se)-1)*100, (1.1*math.Exp(2.79*se)-1)*100
	if ci[0] < lo-0.05 || ci[0] > lo+0.1 || ci[1] > hi+0.05 || ci[1] < hi-0.1 {
		t.Errorf("interval %v, want about [%.2f, %.2f]", ci, lo, hi)
	}
	if nan := ratioCI([]float64{1}, after, 95); !math.IsNaN(nan[0]) {
		t.Errorf("one point before: %v", nan)
	}
}

// TestMagnitudeCoverage simulates single steps at a random place and
// counts how often each found change point's interval covers the true
// step (within 2 points of the truth), by step size and noise; go test -v
// prints the table. The interval is conditional on the detection: it
// ignores that the split was chosen where the levels differ most, so small
// steps, found only when the noise widens them, are covered less often.
func TestMagnitudeCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulation")
	}
	const series = 200
	t.Logf("%-6s %-6s %-6s %6s %9s %9s %11s", "noise", "step", "SDs", "found", "exact at", "covered", "mean width")
	for k, c := range []struct{ sd, rel float64 }{{0.01, 0.01}, {0.01, 0.02}, {0.01, 0.03}, {0.01, 0.05}, {0.01, 0.10}, {0.05, 0.25}, {0.02, 0.10}} {
		found, exact, covered := 0, 0, 0
		width := 0.0
		for s := range uint64(series) {
			rng := rand.New(rand.NewPCG(s, 77+uint64(k)))
			at := 10 + rng.IntN(40)
			x := step(noisy(rng, 60, c.sd), at, c.rel)
			opt := DefaultOptions
			opt.Seed, opt.Permutations = s, 199 // one step: the first test finds it, at the full level
			for _, ch := range Detect(x, opt) {
				if abs(float64(ch.Index-at)) > 2 {
					continue
				}
				found++
				if ch.Index == at {
					exact++
				}
				if ch.CI[0] <= 100*c.rel && 100*c.rel <= ch.CI[1] {
					covered++
				}
				width += ch.CI[1] - ch.CI[0]
				break
			}
		}
		cov := float64(covered) / float64(found)
		t.Logf("%-6s %-6s %-6.0f %6d %9d %8.1f%% %10.2f%%", pctText(c.sd), pctText(c.rel), c.rel/c.sd, found, exact, 100*cov, width/float64(found))
		if c.rel/c.sd >= 5 && (cov < 0.90 || cov > 0.99) {
			t.Errorf("step %g in noise %g: the %d%% interval covers %.1f%%", c.rel, c.sd, ConfidencePct, 100*cov)
		}
	}
}

func pctText(v float64) string { return fmt.Sprintf("%g%%", 100*v) }
