package stats

import "math"

// Prewhitening bounds: the lag-one coefficient is clamped to this range
// (Andrews and Monahan 1992 clamp at ±0.97; a strongly negative one only
// shrinks the variance, so it is bounded closer to zero).
const (
	minWhiten = -0.5
	maxWhiten = 0.97
)

// LocationMethod describes in one line how decision intervals are
// computed, for output records and help text.
const LocationMethod = "studentized circular-block bootstrap (percentile-t) of the decision estimate's pseudo-values (for the robust estimator: biweight crossover location, c = 4.685 robust SD, order groups averaged): t* = (mean* - mean)/se* with se* from each resample's own block sums, interval [mean - t*(1-a/2)*se, mean - t*(a/2)*se] with se the AR(1)-prewhitened flat-top lag-window standard error (bias-corrected lag-one coefficient), clamped to the data range; a series without sign of serial dependence resamples single values with the ordinary standard error; a series of 20 to 49 pairs widens its interval to at least mean ± q*se, q the Student quantile with the degrees of freedom of the effective pairs n(1-r)/(1+r) - 1 at an upper bound r of its lag-one coefficient (the estimate + 2 standard errors), not clamped"

// prewhitenedVariance returns the estimated variance of the mean of the
// series with autocovariances a, by AR(1) prewhitening (Andrews and
// Monahan 1992): fit the lag-one coefficient ρ, corrected for its
// small-sample bias, take the flat-top lag-window long-run variance of
// the residuals e[t] = x[t] - ρ·x[t-1], and recolour it by 1/(1-ρ)².
//
// The lag window alone leaves a dependent short series' variance too low:
// the correlogram of 50 values cannot tell slowly decaying correlation
// from none beyond a lag or two, so the window stops early, and the
// sample autocorrelations it does count are biased towards zero. The AR
// fit carries the whole geometric tail of the correlation in one
// coefficient, its bias correction (Kendall 1954: E[ρ̂] ≈ ρ - (1+3ρ)/n)
// undoes most of the shrinkage, and the lag window on the residuals
// catches whatever dependence the AR(1) shape misses. For independent
// data ρ is near zero and the result near the lag window's own.
//
// It falls back to the lag window's variance for series shorter than 8,
// and, like it, to the circular-block variance of bs when the estimate is
// not positive.
func prewhitenedVariance(a *autocovariance, bs *blockSums) float64 {
	n := len(a.dev)
	if n < 8 || a.at(0) == 0 {
		return meanVariance(a, bs)
	}
	rho := correctedLag1(a)
	e := make([]float64, n-1)
	for t := 1; t < n; t++ {
		e[t-1] = a.dev[t] - float64(rho*a.dev[t-1])
	}
	w := newLagWindow(newAutocovariance(e))
	v, ok := w.meanVariance()
	if !ok {
		return bs.variance()
	}
	// v is the variance of the mean of n-1 residuals; the mean of n
	// values of the series has (n-1)/n of it, recoloured.
	v = float64(v*float64(n-1)) / float64(n)
	g := 1 - rho
	return v / float64(g*g)
}

// LocationInterval returns the studentized circular-block bootstrap
// interval of the mean of the time-ordered series x, like
// MeanIntervalAuto, but with the prewhitened standard error
// (prewhitenedVariance) as the interval's scale, and the block length
// BlockLength chooses, which it also returns; a series without sign of
// serial dependence takes single values and the ordinary standard error
// instead (LagZeroRule). It is the interval of every
// decision estimate: x is a Location's pseudo-values.
func (b Bootstrap) LocationInterval(x []float64, stream string) (lo, hi float64, block int) {
	p := b.locationPivot(x, stream)
	return p.lo, p.hi, p.block
}

// pivot is a LocationInterval with what it was made of: the series'
// studentized resample means t (sorted; nil when the interval is
// degenerate), so that another series' interval can borrow them.
type pivot struct {
	lo, hi float64
	block  int
	t      []float64
	// effective is the series' EffectivePairs.
	effective float64
	lagZero   bool           // whether the series took the lag-zero shortcut
	short     *ShortWidening // the short-series rule's account, nil outside it
}

func (b Bootstrap) locationPivot(x []float64, stream string) pivot {
	if len(x) == 0 || b.Resamples < 1 {
		return pivot{lo: math.NaN(), hi: math.NaN(), block: 1}
	}
	a := newAutocovariance(x)
	p := pivot{block: 1, effective: effectivePairs(a)}
	bs, se := decisionScale(x, a)
	p.block, p.lagZero = bs.block, lagZero(a)
	if se == 0 || bs.count == 1 {
		p.lo, p.hi = bs.center, bs.center
		return p
	}
	reps := b.replicates(bs, stream)
	p.t = make([]float64, len(reps))
	for i, r := range reps {
		p.t[i] = studentize(r.mean, r.variance)
	}
	p.lo, p.hi, p.short = b.decisionInterval(p.t, a, bs, se)
	return p
}

// decisionInterval is the percentile-t interval of the series with
// autocovariances a and blocks bs at scale se from the studentized
// resample means t, widened for a short series (shortWidening, returned
// too; nil for a series the rule does not apply to).
func (b Bootstrap) decisionInterval(t []float64, a *autocovariance, bs *blockSums, se float64) (lo, hi float64, short *ShortWidening) {
	lo, hi = b.percentileT(t, bs.center, se, bs.floor, bs.ceil)
	return shortWidening(a, bs.center, se, lo, hi, b.Confidence)
}

// decisionScale returns the resampling blocks and the standard error of a
// decision interval of x: single values and the ordinary standard error
// when the series shows no serial dependence (lagZero), else the block
// rule's blocks and the prewhitened standard error.
func decisionScale(x []float64, a *autocovariance) (*blockSums, float64) {
	if lagZero(a) {
		return newBlockSums(x, a, 1), math.Sqrt(plainVariance(a))
	}
	block := 1
	if len(x) >= 8 {
		block = newLagWindow(a).blockLength()
	}
	bs := newBlockSums(x, a, block)
	return bs, math.Sqrt(prewhitenedVariance(a, bs))
}

// borrowedInterval is the percentile-t interval of the mean of x with its
// own prewhitened standard error and the studentized resample means of
// another series of the same pairs (p.t): one resampling serves both the
// decision estimate and the geometric mean beside it, which halves the
// cost of a comparison. Without p.t it resamples x itself.
func (b Bootstrap) borrowedInterval(x []float64, p pivot, stream string) (lo, hi float64) {
	if p.t == nil {
		q := b.locationPivot(x, stream)
		return q.lo, q.hi
	}
	a := newAutocovariance(x)
	bs, se := decisionScale(x, a)
	if se == 0 {
		return bs.center, bs.center
	}
	lo, hi, _ = b.decisionInterval(p.t, a, bs, se)
	return lo, hi
}

// percentileTOf draws the resamples of bs and returns the percentile-t
// interval with scale se.
func (b Bootstrap) percentileTOf(bs *blockSums, se float64, stream string) (lo, hi float64) {
	reps := b.replicates(bs, stream)
	t := make([]float64, len(reps))
	for i, r := range reps {
		t[i] = studentize(r.mean, r.variance)
	}
	return b.percentileT(t, bs.center, se, bs.floor, bs.ceil)
}
