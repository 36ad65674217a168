package stats

// lagWindow is the flat-top lag-window estimate of a series' long-run
// variance (Politis and Romano 1995; bandwidth by Politis 2003):
// ĝ = Σ λ(k/M)·R(k) over |k| <= M, the variance of √n times the mean once
// serial correlation is counted. The flat-top window weighs the first
// M/2 lags fully, so it is nearly unbiased for correlation that dies out
// within them, where the Bartlett weights implicit in a block bootstrap's
// own variance shrink every lag by its share of a block; that bias is
// what left circular-block percentile intervals short of their coverage.
type lagWindow struct {
	n        int
	m        int     // bandwidth M; 0 when n < 8, where lags are not estimated
	variance float64 // ĝ, which a flat-top window can drive to 0 or below
	weight   float64 // W = Σ λ(k/M) over |k| <= M
	weight2  float64 // W₂ = Σ λ(k/M)² over |k| <= M
}

func newLagWindow(a *autocovariance) lagWindow {
	n := len(a.dev)
	w := lagWindow{n: n, variance: a.at(0), weight: 1, weight2: 1}
	if n < 8 || w.variance == 0 {
		return w
	}
	w.m = flatTopBandwidth(a)
	for k := 1; k <= w.m; k++ {
		l := flatTop(float64(k) / float64(w.m))
		w.variance += float64(2 * l * a.at(k))
		w.weight += float64(2 * l)
		w.weight2 += float64(2 * l * l)
	}
	return w
}

// meanVariance returns the estimated variance of the series mean,
// ĝ/(n - W), and whether it is positive. Autocovariances about the
// sample mean are biased low by about ĝ/n each, so ĝ is low by a factor
// of about 1 - W/n; dividing by n - W rather than n removes that, as
// n - 1 does for an ordinary variance (it is n - 1 exactly when M = 0).
// The correction is capped at a factor of 2 for the shortest series.
func (w lagWindow) meanVariance() (float64, bool) {
	v := w.variance / max(float64(w.n)-w.weight, float64(w.n)/2)
	return v, v > 0
}

// equivalentDF returns the equivalent degrees of freedom of ĝ,
// n/W₂: a lag-window estimate is about as variable as a variance with
// that many degrees of freedom (Priestley 1981, §6.2.4).
func (w lagWindow) equivalentDF() float64 {
	return float64(w.n) / w.weight2
}
