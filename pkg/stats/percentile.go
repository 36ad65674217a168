package stats

import (
	"math"
	"slices"
)

// Percentile returns the p-th percentile (p in [0,100]) of sorted data by
// linear interpolation between the closest ranks (Hyndman-Fan type 7, the
// R and NumPy default), so reported percentiles match common tools.
// p outside [0,100] is clamped; empty data or a NaN p gives NaN. It reads
// only the two ranks rank7 names, so data ordered by selectPercentiles
// serve as well as sorted data.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || math.IsNaN(p) {
		return math.NaN()
	}
	lo, frac := rank7(n, p)
	if lo >= n-1 {
		return sorted[n-1]
	}
	if frac == 0 {
		return sorted[lo]
	}
	return sorted[lo] + float64(frac*(sorted[lo+1]-sorted[lo]))
}

// rank7 returns the lower rank and the interpolation fraction of the
// type-7 p-th percentile of n values (n > 0, p not NaN, clamped to
// [0,100]).
func rank7(n int, p float64) (lo int, frac float64) {
	p = min(max(p, 0), 100)
	h := float64(n-1) * p / 100
	lo = int(math.Floor(h))
	return lo, h - float64(lo)
}

// Median returns the type-7 median of x without modifying x, by
// selection on a copy: linear time, where sorting would be O(n log n).
func Median(x []float64) float64 {
	return Percentile(order(slices.Clone(x), 50), 50)
}

// order reorders x so that Percentile gives, for each of ps, what it
// would give for sorted x, and returns x. Data with NaN is sorted, which
// puts NaN first; other data is only partly ordered, by selection.
func order(x []float64, ps ...float64) []float64 {
	if slices.ContainsFunc(x, math.IsNaN) {
		slices.Sort(x)
	} else {
		selectPercentiles(x, ps...)
	}
	return x
}
