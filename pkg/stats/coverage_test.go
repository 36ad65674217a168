package stats

import (
	"fmt"
	"math"
	"testing"
)

// TestCoverageBands checks the decision interval's coverage on every noise
// model of the simulation (noise_test.go), with no difference and with the
// contender 3% slower, against the target: nominal 95% intervals cover
// 0.94 to 0.96 of the time at 50 and 200 pairs, 0.93 to 0.97 at 20
// (issue 22's band for small samples), and under contamination or a
// leader effect are at most 1.15 times as wide as on clean independent
// noise.
//
// Each band is widened by three binomial standard errors of the simulated
// coverage (0.005 at 2000 datasets, 0.007 at 1000), so the test fails
// when coverage moves by a few points, as it would with the legacy
// interval (0.89 under 5% contamination at 50 pairs, 0.997 with a 3%
// leader penalty), not by chance; the datasets are seeded, so the result
// is the same on every run.
//
// Where the method falls short of the target the row has its own lower
// bound, the measured value less three standard errors, so that the
// shortfall is written down here and cannot silently grow: AR(1) 0.5 at
// 50 pairs (0.93). Every dataset reports an interval: at 20 pairs a
// series answers for the dependence it cannot rule out (shortWidening), so
// AR(1) 0.8 (about 2 independent values' worth of information) covers
// 0.94 there, with wide intervals. On independent noise from 50 pairs
// the median width is at most 1.05 times the paired t-interval's
// (LagZeroRule). make coverage prints the full table.
func TestCoverageBands(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("the coverage simulation runs without -short and -race (make test runs it separately)")
	}
	shortfalls := map[string]float64{
		"AR(1) phi=0.5/50": 0.91,
	}
	clean := map[string]float64{} // median width of the independent row by n and delta
	for _, m := range noiseModels() {
		for _, delta := range []float64{0, -math.Log(1.03)} {
			for _, c := range []struct{ n, reps int }{{20, 1000}, {50, 2000}, {200, 1000}} {
				row := tableRow{model: m, n: c.n, delta: delta, method: simMethods["robust"]}
				res := row.run(c.reps)
				key := fmt.Sprintf("%s/%d", m.name, c.n)
				cov, se := res.coverage(), res.coverageSE()
				lo, hi := 0.94, 0.96
				if c.n < 50 {
					lo, hi = 0.93, 0.97
				}
				if floor, ok := shortfalls[key]; ok {
					lo = floor
				}
				t.Logf("%-18s n=%3d delta %+.3f: coverage %.3f ± %.3f, median width %.2f%% (%.3f of the paired t's)",
					m.name, c.n, delta, cov, se, res.medianWidth(), res.medianTRatio())
				if m.name == "independent" && c.n >= 50 && res.medianTRatio() > 1.05 {
					t.Errorf("independent n=%d: median width %.3f times the paired t-interval's, want at most 1.05", c.n, res.medianTRatio())
				}
				if cov < lo-3*se || cov > hi+3*se {
					t.Errorf("%s n=%d delta %+.3f: coverage %.3f outside [%.2f, %.2f] ± 3·%.3f", m.name, c.n, delta, cov, lo, hi, se)
				}
				wkey := fmt.Sprintf("%d/%v", c.n, delta)
				if m.name == "independent" {
					clean[wkey] = res.medianWidth()
				}
				if contaminatedOrLeader(m.name) && res.medianWidth() > 1.15*clean[wkey] {
					t.Errorf("%s n=%d: median width %.2f%% is more than 1.15 times the clean %.2f%%", m.name, c.n, res.medianWidth(), clean[wkey])
				}
				if delta == 0 && m.name != "AR(1) phi=0.8" && res.verdicts[ContenderFaster]+res.verdicts[ReferenceFaster] > c.reps/20 {
					t.Errorf("%s n=%d: %d false directional verdicts in %d A/A datasets", m.name, c.n,
						res.verdicts[ContenderFaster]+res.verdicts[ReferenceFaster], c.reps)
				}
			}
		}
	}
}

func contaminatedOrLeader(name string) bool {
	return len(name) >= 6 && (name[:6] == "contam" || name[:6] == "leader")
}

// The legacy interval's rows that the robust estimator was made for: it
// must stay what it was (reproducing archived analyses), including its
// faults, which this pins so a change to shared code cannot move it.
func TestLegacyCoverageUnchanged(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("the coverage simulation runs without -short and -race (make test runs it separately)")
	}
	for _, c := range []struct {
		model  int
		lo, hi float64
	}{
		{0, 0.94, 0.975}, // independent: in band
		{3, 0.86, 0.91},  // contaminated 5%: short, and wide
		{5, 0.985, 1},    // leader 3%: too wide
	} {
		m := noiseModels()[c.model]
		res := tableRow{model: m, n: 50, delta: 0, method: simMethods["legacy"]}.run(1000)
		t.Logf("legacy %s: coverage %.3f, width %.2f%%", m.name, res.coverage(), res.medianWidth())
		if cov := res.coverage(); cov < c.lo || cov > c.hi {
			t.Errorf("legacy %s: coverage %.3f, was within [%.2f, %.2f]", m.name, cov, c.lo, c.hi)
		}
	}
}

// TestSequentialFalseVerdicts checks that sampling until a decision does
// not inflate false verdicts: with looks at doubling fractions of the
// budget and linear spending (LookConfidence), the share of runs that end
// in a false verdict stays at most 5% (plus three binomial standard
// errors) on every noise model, for a true change of 0 and +0.5% (inside
// the 1% threshold: a directional verdict is false) and +1.5% (outside:
// practical equivalence is false). The budget fits 200 pairs.
func TestSequentialFalseVerdicts(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("the coverage simulation runs without -short and -race (make test runs it separately)")
	}
	const reps = 300
	for _, m := range noiseModels() {
		for _, change := range []float64{0, 0.005, 0.015} {
			res := tableRow{model: m, n: 200, delta: -math.Log1p(change)}.runSequential(reps)
			v := res.verdicts
			wrong := v[ContenderFaster] + v[ReferenceFaster]
			if change > 0.01 {
				wrong = v[ContenderFaster] + v[Equivalent]
			}
			rate := float64(wrong) / reps
			t.Logf("%-18s change %+.1f%%: %d false verdicts of %d, mean stop %.0f pairs", m.name, 100*change, wrong, reps, res.meanStop)
			if limit := 0.05 + 3*math.Sqrt(0.05*0.95/reps); rate > limit {
				t.Errorf("%s change %+.1f%%: false verdict rate %.3f above %.3f", m.name, 100*change, rate, limit)
			}
		}
	}
}
