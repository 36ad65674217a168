package stats

import "math"

// Serial dependence at small samples. A series of n pairs whose
// log-ratios follow an AR(1) process with coefficient ρ estimates its
// mean about as well as n(1-ρ)/(1+ρ) independent ones (EffectivePairs).
// The decision interval corrects its scale for the dependence it
// estimates (prewhitenedVariance), and from 50 pairs on that estimate is
// good enough (AR(1) with ρ = 0.8 covers 0.93 at 50 pairs,
// TestCoverageTable). Below 50 pairs the lag-one coefficient is too
// uncertain to trust alone: its standard error is about 0.2 at 20 pairs,
// so a series of AR(1) noise with ρ = 0.8 can look independent, and one
// with ρ = 0.5 often does, and its scale then rests on a handful of
// independent values' worth of information, which the percentile-t
// quantiles of its own resamples do not know.
//
// Withholding the interval of the series that look clearly dependent
// does not help: the series it keeps are those whose dependence was
// hidden by chance, and theirs are the intervals that are too narrow.
// With the earlier rule (no interval at a bias-corrected coefficient
// above 0.5) the AR(1) rows covered 0.87 to 0.92 (ρ = 0.5) and 0.41 to
// 0.65 (ρ = 0.8) of the intervals they reported at 20 to 49 pairs. So a short
// series answers for the dependence it cannot rule out: its interval is
// at least Student's t at its scale with the degrees of freedom of the
// independent values it may hold, n(1-ρ_u)/(1+ρ_u) - 1 with ρ_u an upper
// bound of its lag-one coefficient (shortLag1Bound), and that part is not
// clamped to the data's range, since 20 pairs of strongly dependent
// noise may all lie on one side of their mean (shortWidening). Every row of
// the simulation from 20 to 49 pairs then covers 0.935 to 0.969 with no
// interval withheld; independent series pay 1.36 times the paired
// t-interval's width at 20 pairs and 1.13 at 49 (1.33 and 1.12 before),
// and a strongly dependent one gets an interval as wide as what it
// holds, an honest "inconclusive".

// The short-series rule's range and margin, chosen by the whole
// simulation table (TestCoverageTable), not by one row. It applies from
// MinCheckedPairs, where the table starts, up to ShortSeriesPairs; the
// upper bound of the lag-one coefficient is ShortLag1Margin of its
// standard errors above the estimate (at 1.5 AR(1) ρ = 0.8 covered 0.91
// to 0.92 at 20 and 30 pairs, at 2.5 several rows covered over 0.97).
const (
	ShortSeriesPairs = 50
	MinCheckedPairs  = 20
	ShortLag1Margin  = 2.0
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
	return effectiveAt(n, correctedLag1(a))
}

// effectiveAt is how many independent values n values of AR(1) noise
// with coefficient rho are worth: n(1-rho)/(1+rho).
func effectiveAt(n, rho float64) float64 { return n * (1 - rho) / (1 + rho) }

// shortSeries reports whether a series of n values takes the
// short-series rule.
func shortSeries(n int) bool { return n >= MinCheckedPairs && n < ShortSeriesPairs }

// shortLag1Bound is the upper bound of the lag-one coefficient of the
// series with autocovariances a (a.at(0) > 0): max(ρ, 0) +
// ShortLag1Margin·sqrt((1-ρ²)/n), ρ the bias-corrected estimate, at most
// maxWhiten.
func shortLag1Bound(a *autocovariance) float64 {
	rho := correctedLag1(a)
	se := math.Sqrt((1 - float64(rho*rho)) / float64(len(a.dev)))
	return min(max(rho, 0)+float64(ShortLag1Margin*se), maxWhiten)
}

// ShortWidening is the account of the short-series rule on a decision
// interval: the upper bound of the lag-one coefficient it answered for,
// the independent values the series holds at that bound, and the
// interval's width over the percentile-t interval's (1 when that
// already held center ± t·se).
type ShortWidening struct {
	Lag1Bound, EffectiveBound, Factor float64
}

// shortWidening returns the interval [lo, hi] of a short series with
// autocovariances a, center and scale se widened to at least center ±
// t·se, t Student's quantile at confidence percent with the degrees of
// freedom of the independent values the series holds at the upper bound
// of its lag-one coefficient (shortLag1Bound), not clamped to the data's
// range, with its account; any other series' interval unchanged and no
// account. decisionInterval applies it to every decision interval.
func shortWidening(a *autocovariance, center, se, lo, hi, confidence float64) (float64, float64, *ShortWidening) {
	if !shortSeries(len(a.dev)) || se == 0 || a.at(0) == 0 {
		return lo, hi, nil
	}
	r := shortLag1Bound(a)
	eff := effectiveAt(float64(len(a.dev)), r)
	q := studentQuantile(1-(100-confidence)/200, max(eff-1, 1))
	w := &ShortWidening{Lag1Bound: r, EffectiveBound: eff, Factor: 1}
	wlo, whi := min(lo, center-float64(q*se)), max(hi, center+float64(q*se))
	if hi > lo {
		w.Factor = (whi - wlo) / (hi - lo)
	}
	return wlo, whi, w
}
