package stats

import (
	"fmt"
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

// simResult is what a simulation measured, as fractions of datasets.
type simResult struct {
	coverage   float64 // speedup intervals containing the true value 1
	iidCover   float64 // the same with block length 1, ignoring dependence
	faster     float64 // "contender/reference faster" verdicts
	axisClaims float64 // CompareAxis "better" verdicts
	meanBlock  float64 // average chosen block length
}

func (s simulation) run(t *testing.T) simResult {
	t.Helper()
	r := rand.New(rand.NewPCG(20260101, uint64(s.phi*1000)))
	b := Bootstrap{Seed: 99, Resamples: 1000, Confidence: 95}
	var covered, iidCovered, faster, claims, blocks int
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
		if lo, hi := b.MeanInterval(d, 1, stream); lo <= 0 && 0 <= hi {
			iidCovered++
		}
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
		iidCover:   float64(iidCovered) / n,
		faster:     float64(faster) / n,
		axisClaims: float64(claims) / n,
		meanBlock:  float64(blocks) / n,
	}
}

// TestPairedCoverage checks how often nominal 95% intervals of the
// geometric speedup contain the true value 1 when there is no difference,
// for n = 50 pairs with independent log-ratios and with AR(1) drift
// (phi = 0.5), which the block bootstrap must respect.
//
// Expected values, from 5000 simulated datasets each: independent data
// 0.926 (0.941 with block length 1: the percentile bootstrap of a mean
// undercovers a little at n = 50, a little more when a noisy lag-one
// estimate picks blocks of 2-3); AR(1) 0.827, against 0.723 with block
// length 1. The AR(1) shortfall is the method's, not the code's: the
// variance of the mean there is 3x the independent value, blocks of a few
// samples out of 50 recover only part of it, and no fixed block length
// reached 0.87 (at n = 200 the automatic length reaches 0.90).
//
// Bands: with 400 datasets the binomial standard error is 0.013 for
// independent data and 0.019 for AR(1); each band is about three standard
// errors around the expected value, so a broken resampler or block rule
// falls outside it. The paired gain over block length 1 (expected 0.10,
// standard error about 0.017 since both intervals use the same datasets)
// must be at least 0.05, which fails if the block rule stops responding to
// dependence. The AR(1) case is skipped under -short.
func TestPairedCoverage(t *testing.T) {
	cases := []struct {
		name   string
		sim    simulation
		lo, hi float64
		gain   float64 // minimum coverage gained over block length 1
	}{
		{"iid", simulation{pairs: 50, datasets: 400, phi: 0, sigma: 0.03}, 0.88, 0.98, -0.05},
		{"AR(1) phi=0.5", simulation{pairs: 50, datasets: 400, phi: 0.5, sigma: 0.03}, 0.77, 0.89, 0.05},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.sim.phi != 0 {
				t.Skip("heavier simulation skipped in -short mode")
			}
			res := c.sim.run(t)
			t.Logf("coverage %.3f (block length 1: %.3f), mean block %.2f, faster verdicts %.3f, axis claims %.3f",
				res.coverage, res.iidCover, res.meanBlock, res.faster, res.axisClaims)
			if res.coverage < c.lo || res.coverage > c.hi {
				t.Errorf("coverage %.3f outside [%.2f, %.2f]", res.coverage, c.lo, c.hi)
			}
			if res.coverage-res.iidCover < c.gain {
				t.Errorf("coverage %.3f gains less than %.2f over block length 1 (%.3f)", res.coverage, c.gain, res.iidCover)
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
