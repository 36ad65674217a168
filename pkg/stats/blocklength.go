package stats

import "math"

// BlockRule describes in one line the rule BlockLength implements, for
// output records.
const BlockRule = "flat-top lag-window degrees-of-freedom match: L = n/(1 + n/W2), W2 the sum of squared flat-top weights over |k| <= M with Politis (2003) bandwidth M, so each resample has one block more than the variance estimate has degrees of freedom; rounded and clamped to [1, min(3*sqrt(n), n/4)]; 1 when n < 8 or the series is constant"

// BlockLength picks the block length for the studentized circular-block
// bootstrap of the mean of the time-ordered series x.
//
// Blocks of consecutive samples carry the short-range serial dependence of
// drift (thermal state, frequency, background load) into every resample.
// In the studentized bootstrap the interval's scale comes from the
// flat-top lag-window variance (lagWindow), so the blocks have a
// different job: each resample's own standard error is estimated from
// its blocks, and the spread of that estimate sets how heavy the tails of
// the studentized replicates are. The rule makes the two match: the
// lag-window estimate is as variable as a variance with ν = n/W₂ degrees
// of freedom, and a resample of ν+1 independent blocks gives its block
// variance the same ν, so L = n/(ν+1). That is 3 for independent data
// (M = 2) and grows with the lags the correlogram shows, so dependent
// series get fewer, longer blocks and wider, honest intervals.
func BlockLength(x []float64) int {
	if len(x) < 8 {
		return 1
	}
	return newLagWindow(newAutocovariance(x)).blockLength()
}

// blockLength is BlockLength's rule for the estimated window. The cap
// n/4 keeps at least four blocks, 3·sqrt(n) is Politis and White's cap.
func (w lagWindow) blockLength() int {
	if w.m == 0 {
		return 1
	}
	n := w.n
	limit := max(1, min(int(math.Ceil(3*math.Sqrt(float64(n)))), n/4))
	l := float64(n) / (1 + w.equivalentDF())
	return min(max(int(math.Floor(l+0.5)), 1), limit)
}

// maxLags caps the lags the bandwidth search may examine, so that on very
// long series the search stays linear in n: each lag costs a pass over
// the series. It leaves every series of up to 150,000 values on Politis's
// own cap; longer ones that are still correlated 400 lags apart get the
// widest window this allows.
const maxLags = 400

// flatTopBandwidth returns the lag-window width M of Politis (2003): m̂ is
// the first lag that starts a run of K_N consecutive autocorrelations
// inside ±c·sqrt(log10(n)/n) with c = 2, i.e. where the correlogram has
// died out, and M = 2·m̂, capped at ceil(sqrt(n)) + K_N (and maxLags).
// Without such a run m̂ is the largest significant lag.
func flatTopBandwidth(a *autocovariance) int {
	n := len(a.dev)
	fn := float64(n)
	log10n := ln(fn) / math.Ln10
	kn := max(5, int(math.Ceil(math.Sqrt(log10n))))
	mmax := min(int(math.Ceil(math.Sqrt(fn)))+kn, n-1, maxLags)
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
