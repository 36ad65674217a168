package stats

import "math"

// BlockRule describes in one line the rule BlockLength implements, for
// output records.
const BlockRule = "Politis-White (2004) automatic block length with the Patton-Politis-White (2009) correction, for the circular bootstrap, rounded and clamped to [1, min(3*sqrt(n), n/4)]; 1 when n < 8 or the series is constant"

// BlockLength picks the block length for a circular-block bootstrap of the
// mean of the time-ordered series x.
//
// Blocks of consecutive samples carry the short-range serial dependence of
// drift (thermal state, frequency, background load) into every resample, so
// the interval is not made too narrow by treating neighbouring samples as
// independent. The length is estimated from the data (Politis and White
// 2004, corrected by Patton, Politis and White 2009): it grows with the
// autocorrelation the series shows and falls to 1, the ordinary bootstrap,
// when the samples look independent.
func BlockLength(x []float64) int {
	n := len(x)
	if n < 8 {
		return 1
	}
	a := newAutocovariance(x)
	if a.at(0) == 0 {
		return 1
	}
	// Politis and White cap the length at 3·sqrt(n); the tool at n/4.
	limit := max(1, min(int(math.Ceil(3*math.Sqrt(float64(n)))), n/4))
	cube := circularOptimumCubed(a, flatTopBandwidth(a))
	return max(1, roundCubeRoot(cube, limit))
}

// roundCubeRoot returns cbrt(v) rounded half up, at most limit, by exact
// integer cube comparisons ((k+1/2)³ <= v exactly when (2k+1)³ <= 8v),
// so platform differences in math.Cbrt cannot change the block length.
// NaN gives 0.
func roundCubeRoot(v float64, limit int) int {
	k := 0
	for k < limit {
		odd := float64(2*k + 1)
		if !(float64(odd*odd)*odd <= 8*v) {
			break
		}
		k++
	}
	return k
}

// flatTopBandwidth returns the lag-window width M of Politis (2003): m̂ is
// the first lag that starts a run of K_N consecutive autocorrelations
// inside ±c·sqrt(log10(n)/n) with c = 2, i.e. where the correlogram has
// died out, and M = 2·m̂, capped at ceil(sqrt(n)) + K_N. Without such a run
// m̂ is the largest significant lag.
func flatTopBandwidth(a *autocovariance) int {
	n := len(a.dev)
	fn := float64(n)
	log10n := ln(fn) / math.Ln10
	kn := max(5, int(math.Ceil(math.Sqrt(log10n))))
	mmax := min(int(math.Ceil(math.Sqrt(fn)))+kn, n-1)
	crit := 2 * math.Sqrt(log10n/fn)
	run, lastSignificant := 0, 0
	for k := 1; k <= mmax; k++ {
		if math.Abs(a.at(k)/a.at(0)) < crit {
			run++
			if run == kn {
				return min(2*(k-kn+1), mmax)
			}
			continue
		}
		run, lastSignificant = 0, k
	}
	return min(2*max(lastSignificant, 1), mmax)
}

// circularOptimumCubed returns b_opt³ for the circular bootstrap, where
// b_opt = (2·G²/D_CB)^(1/3)·n^(1/3), G = Σ λ(k/M)·|k|·R(k) and
// D_CB = (4/3)·ĝ², ĝ = Σ λ(k/M)·R(k), both summed over |k| <= M with the
// flat-top window λ. D_CB is the corrected (2009) constant.
func circularOptimumCubed(a *autocovariance, m int) float64 {
	g, bigG := a.at(0), 0.0
	for k := 1; k <= m; k++ {
		w := flatTop(float64(k) / float64(m))
		g += float64(2 * w * a.at(k))
		bigG += float64(2 * w * float64(k) * a.at(k))
	}
	d := 4.0 / 3.0 * g * g
	return 2 * bigG * bigG / d * float64(len(a.dev))
}

// flatTop is the trapezoidal flat-top lag window of Politis and Romano
// (1995): 1 up to |s| = 1/2, falling linearly to 0 at |s| = 1.
func flatTop(s float64) float64 {
	s = math.Abs(s)
	switch {
	case s <= 0.5:
		return 1
	case s <= 1:
		return 2 * (1 - s)
	}
	return 0
}
