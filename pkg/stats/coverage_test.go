package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// simulation generates A/A paired data, n pairs with no true difference,
// whose log-ratios are AR(1) noise with coefficient phi riding on a
// drifting common base, and analyzes each dataset.
type simulation struct {
	pairs, datasets int
	phi, sigma      float64
}

// simResult is what a simulation measured, as fractions of datasets
// unless noted.
type simResult struct {
	coverage   float64 // speedup intervals containing the true value 1
	width      float64 // mean log-interval width over 2·1.96 true standard errors of the mean log-ratio
	faster     float64 // "contender/reference faster" verdicts
	axisClaims float64 // CompareAxis "better" verdicts
	meanBlock  float64 // average chosen block length
}

func (s simulation) run(t *testing.T) simResult {
	t.Helper()
	r := rand.New(rand.NewPCG(20260101, uint64(s.phi*1000)))
	b := Bootstrap{Seed: 99, Resamples: 1000, Confidence: 95}
	oracle := 2 * 1.959964 * s.sigma * ar1MeanSE(s.pairs, s.phi)
	var covered, faster, claims, blocks int
	var width float64
	for i := range s.datasets {
		d := ar1(r, s.pairs, s.phi, s.sigma)
		ref, con := pairsFromLogRatios(r, d)
		stream := fmt.Sprint("sim/", i)
		p, err := ComparePaired(PairedInput{Ref: ref, Con: con}, b, 1, stream)
		if err != nil {
			t.Fatal(err)
		}
		a, err := CompareAxis(ref, con, LowerIsBetter, b, 1, stream)
		if err != nil {
			t.Fatal(err)
		}
		if p.SpeedupLo <= 1 && 1 <= p.SpeedupHi {
			covered++
		}
		width += math.Log(p.SpeedupHi / p.SpeedupLo)
		if p.Verdict == ContenderFaster || p.Verdict == ReferenceFaster {
			faster++
		}
		if a.Verdict == ContenderBetter || a.Verdict == ReferenceBetter {
			claims++
		}
		blocks += p.BlockLen
	}
	n := float64(s.datasets)
	return simResult{
		coverage:   float64(covered) / n,
		width:      width / n / oracle,
		faster:     float64(faster) / n,
		axisClaims: float64(claims) / n,
		meanBlock:  float64(blocks) / n,
	}
}

// ar1MeanSE returns the standard error of the mean of n values of a
// stationary AR(1) process with unit innovation variance:
// Var = γ₀/n · (1 + 2 Σ (1 - k/n) φᵏ), γ₀ = 1/(1 - φ²).
func ar1MeanSE(n int, phi float64) float64 {
	sum, pk := 1.0, 1.0
	for k := 1; k < n; k++ {
		pk *= phi
		sum += 2 * (1 - float64(k)/float64(n)) * pk
	}
	return math.Sqrt(sum / (1 - phi*phi) / float64(n))
}

// TestPairedCoverage checks how often nominal 95% intervals of the
// geometric speedup contain the true value 1 when there is no difference,
// with independent log-ratios and with AR(1) noise, which the interval
// must respect, and that the coverage is not bought with absurd width.
//
// Expected values, from 20,000 simulated datasets each through this
// file's simulation (at 2000 resamples within 0.002 of these): at n = 50,
// independent data 0.953, width 1.11 times that of an interval from the
// true standard error, and AR(1) phi = 0.5 0.928, width 1.18; at n = 200,
// AR(1) phi = 0.5 0.939, width 1.04. The percentile interval this method
// replaced covered 0.93, 0.84 and 0.90. The remaining AR(1) shortfall is
// the method's, not the code's: at 50 pairs the correlogram cannot always
// tell AR(1) noise from independent noise, so some dependent datasets get
// an independent-size interval. The widths are the price of estimating
// the standard error from the data (a t interval at n = 50 is already
// 1.02 times the known-variance one, and the flat-top estimate spends
// degrees of freedom on lags).
//
// Bands: the binomial standard error of a coverage from 2000 datasets is
// 0.0047 at 0.953 and 0.0058 at 0.928, and from 1000 datasets 0.0076 at
// 0.939; the bands are the expected value ± 0.02 and ± 0.025, more than
// three standard errors, so the test fails when coverage moves a few
// points, as it would back to the percentile interval. The width bands
// catch intervals that become narrow or absurdly wide, and the mean block
// length must follow dependence: 3 for independent data, about 5 under
// AR(1) at n = 50 and 7 at n = 200. The AR(1) cases are skipped under
// -short.
func TestPairedCoverage(t *testing.T) {
	cases := []struct {
		name             string
		sim              simulation
		want, band       float64 // expected coverage and allowed deviation
		widthLo, widthHi float64
		blockLo, blockHi float64
	}{
		{"iid", simulation{pairs: 50, datasets: 2000, phi: 0, sigma: 0.03}, 0.953, 0.02, 1.0, 1.25, 2.8, 3.3},
		{"AR(1) phi=0.5", simulation{pairs: 50, datasets: 2000, phi: 0.5, sigma: 0.03}, 0.928, 0.02, 1.0, 1.4, 4, 6.5},
		{"AR(1) phi=0.5 n=200", simulation{pairs: 200, datasets: 1000, phi: 0.5, sigma: 0.03}, 0.939, 0.025, 0.9, 1.2, 6, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.sim.phi != 0 {
				t.Skip("heavier simulation skipped in -short mode")
			}
			res := c.sim.run(t)
			t.Logf("coverage %.3f, width %.3f, mean block %.2f, faster verdicts %.3f, axis claims %.3f",
				res.coverage, res.width, res.meanBlock, res.faster, res.axisClaims)
			if math.Abs(res.coverage-c.want) > c.band {
				t.Errorf("coverage %.3f outside %.3f ± %.3f", res.coverage, c.want, c.band)
			}
			if res.width < c.widthLo || res.width > c.widthHi {
				t.Errorf("width %.3f of the known-variance interval, want %.2f to %.2f", res.width, c.widthLo, c.widthHi)
			}
			if res.meanBlock < c.blockLo || res.meanBlock > c.blockHi {
				t.Errorf("mean block length %.2f, want %.1f to %.1f", res.meanBlock, c.blockLo, c.blockHi)
			}
			// With no true difference a directional verdict needs the whole
			// interval beyond ±1%, rarer than the nominal 5% of intervals
			// that miss the truth at all.
			if res.faster > 0.05 || res.axisClaims > 0.05 {
				t.Errorf("A/A data: %.3f faster verdicts and %.3f axis claims, want at most 0.05",
					res.faster, res.axisClaims)
			}
		})
	}
}
