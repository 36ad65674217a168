package stats

import (
	"math"
	"slices"
)

// Percentile returns the p-th percentile (p in [0,100]) of sorted data by
// linear interpolation between the closest ranks (Hyndman-Fan type 7, the
// R and NumPy default), so reported percentiles match common tools.
// p outside [0,100] is clamped; empty data or a NaN p gives NaN.
func Percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || math.IsNaN(p) {
		return math.NaN()
	}
	p = min(max(p, 0), 100)
	h := float64(n-1) * p / 100
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	frac := h - float64(lo)
	if frac == 0 {
		return sorted[lo]
	}
	return sorted[lo] + float64(frac*(sorted[lo+1]-sorted[lo]))
}

// Median returns the type-7 median of x without modifying x.
func Median(x []float64) float64 {
	return Percentile(sortedCopy(x), 50)
}

// sortedCopy returns an ascending copy of x, leaving x untouched.
func sortedCopy(x []float64) []float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s
}
