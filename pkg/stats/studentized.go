package stats

import (
	"math"
	"slices"
)

// meanVariance returns the estimated variance of the mean of the series
// with autocovariances a: the flat-top lag-window estimate, or, when that
// is not positive (strong negative correlation can take it there), the
// circular-block bootstrap's own variance for the blocks of bs, which
// never is.
func meanVariance(a *autocovariance, bs *blockSums) float64 {
	if v, ok := newLagWindow(a).meanVariance(); ok {
		return v
	}
	return bs.variance()
}

// studentize returns one replicate t* = dev/sqrt(variance). A resample
// whose blocks all agree has no spread of its own, and its t* is
// ±MaxFloat64 (0 if it also sits on the mean): it sorts to the extreme,
// so enough of them push an interval end out to the data range.
func studentize(dev, variance float64) float64 {
	sd := math.Sqrt(variance)
	if sd == 0 {
		if dev == 0 {
			return 0
		}
		return math.Copysign(math.MaxFloat64, dev)
	}
	return min(max(dev/sd, -math.MaxFloat64), math.MaxFloat64)
}

// percentileT returns the percentile-t interval
// [center - t*(1-α/2)·se, center - t*(α/2)·se] from the replicates t
// (reordered in place), with t*(p) their type-7 quantiles at the
// configured confidence. The upper quantile sets the lower end: a
// resample mean above its own center says the series mean may lie as far
// below. Each end is clamped to [floor, ceil], the range of values the
// statistic can take: with few blocks t* can be unbounded, and an
// interval reaching past every observation says no more than the range.
func (b Bootstrap) percentileT(t []float64, center, se, floor, ceil float64) (lo, hi float64) {
	slices.Sort(t)
	tail := float64((100 - b.Confidence) / 2) // rounded: no fused multiply-add
	lo = center - float64(Percentile(t, 100-tail)*se)
	hi = center - float64(Percentile(t, tail)*se)
	return min(max(lo, floor), ceil), max(min(hi, ceil), floor)
}
