package stats

import "fmt"

// Serial dependence at small samples. A series of n pairs whose
// log-ratios follow an AR(1) process with coefficient ρ estimates its
// mean about as well as n(1-ρ)/(1+ρ) independent ones (EffectivePairs).
// The decision interval corrects its scale for the dependence it
// estimates, and from 50 pairs on that estimate is good enough (AR(1)
// with ρ = 0.8 covers 0.93 at 50 pairs, TestCoverageTable). Below 50
// pairs the lag-one coefficient is too uncertain to correct for: with
// ρ = 0.8 at 20 pairs the interval covered 0.83. Where such a short
// series is clearly dependent the comparison reports insufficient
// evidence, and why, instead of an interval.

// Thresholds of the small-sample dependence rule, chosen by the whole
// simulation table (TestCoverageTable), not by one row: short series are
// below ShortSeriesPairs, and clearly dependent ones have a
// bias-corrected lag-one autocorrelation above MaxShortLag1, which one
// independent series of 20 pairs in 50 exceeds.
//
// The rule applies from MinCheckedPairs, where the table starts: a
// series of 10 pairs has a lag-one coefficient too noisy even to tell
// clear dependence (its bias correction alone adds 0.1 to 0.4), and there
// the comparison says the interval is fragile instead.
const (
	ShortSeriesPairs = 50
	MaxShortLag1     = 0.5
	MinCheckedPairs  = 20
)

// EffectivePairs returns n(1-ρ)/(1+ρ) for the time-ordered series x, ρ
// its bias-corrected lag-one autocorrelation clamped to [-0.5, 0.97]
// (correctedLag1); n for series shorter than 8 or without spread.
func EffectivePairs(x []float64) float64 {
	return effectivePairs(newAutocovariance(x))
}

func effectivePairs(a *autocovariance) float64 {
	n := float64(len(a.dev))
	if len(a.dev) < 8 || a.at(0) == 0 {
		return n
	}
	rho := correctedLag1(a)
	return n * (1 - rho) / (1 + rho)
}

// dependentShort is the reason a short series with autocovariances a
// gives no interval (see ShortSeriesPairs), or "" when it gives one.
func dependentShort(a *autocovariance) string {
	n := len(a.dev)
	if n < MinCheckedPairs || n >= ShortSeriesPairs || a.at(0) == 0 {
		return ""
	}
	rho := correctedLag1(a)
	if rho <= MaxShortLag1 {
		return ""
	}
	return fmt.Sprintf("insufficient evidence: the %d pairs are serially dependent (bias-corrected lag-one autocorrelation %.2f, about %.1f independent pairs' worth), and below %d pairs the dependence is too uncertain to correct an interval for; collect more pairs, or find and remove the drift",
		n, rho, effectivePairs(a), ShortSeriesPairs)
}
