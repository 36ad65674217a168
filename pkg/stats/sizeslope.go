package stats

import (
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// SizeSlope is how a per-operation time depends on the size of the batch
// it was measured in: the change of the time per doubling of the size, in
// percent, with its interval.
//
// The slope is Theil and Sen's: the median of the slopes between every two
// samples of different sizes, of the log time against log2 of the size. A
// median of slopes ignores the few batches that interference slowed, and
// its interval inverts Kendall's rank test (Sen 1968), which needs no
// model of the noise: where the harness drew the sizes at random, apart
// from the order of collection, the test's null distribution holds
// however the noise of successive batches is correlated.
type SizeSlope struct {
	// PerDoublingPct is 100·(e^b − 1) for a slope b of the log time per
	// doubling of the size: the percent by which the time per operation
	// changes when the batch holds twice as many operations.
	PerDoublingPct float64
	// Lo and Hi bound it at the requested confidence.
	Lo, Hi float64
	// N is the number of samples used; Sizes the distinct sizes among them.
	N, Sizes int
}

// Significant reports whether the interval excludes no dependence.
func (s SizeSlope) Significant() bool { return s.Lo > 0 || s.Hi < 0 }

// MaxSizeSlopeSamples bounds the samples the slope uses: every two of them
// give a slope, so 1,000 samples give half a million. A longer series is
// thinned to that many, evenly spread over it.
const MaxSizeSlopeSamples = 1000

// ErrSizeNotVaried is returned when fewer than two sizes, or fewer than
// three samples, leave no slope to measure.
var ErrSizeNotVaried = errors.New("the batch size did not vary")

// SizeDependence measures how times (per operation, positive) depend on
// sizes (operations per batch, positive), at confidence percent.
func SizeDependence(sizes []int64, times []float64, confidence float64) (SizeSlope, error) {
	x, y := sizeSeries(sizes, times)
	if len(x) < 3 || distinct(x) < 2 {
		return SizeSlope{N: len(x), Sizes: distinct(x)}, ErrSizeNotVaried
	}
	slopes := pairSlopes(x, y)
	slices.Sort(slopes)
	m := float64(len(slopes))
	z := distuv.UnitNormal.Quantile(1 - (100-confidence)/200)
	c := z * math.Sqrt(kendallVariance(x, y))
	lo := clampRank(math.Round((m-c)/2)-1, len(slopes))
	hi := clampRank(math.Round((m+c)/2), len(slopes))
	return SizeSlope{
		PerDoublingPct: perDoubling(Percentile(slopes, 50)),
		Lo:             perDoubling(slopes[lo]), Hi: perDoubling(slopes[hi]),
		N: len(x), Sizes: distinct(x),
	}, nil
}

// sizeSeries is log2 of the sizes and the natural log of the times, for
// the samples with both positive, thinned to MaxSizeSlopeSamples.
func sizeSeries(sizes []int64, times []float64) (x, y []float64) {
	n := min(len(sizes), len(times))
	for i := 0; i < n; i++ {
		if sizes[i] > 0 && times[i] > 0 && !math.IsInf(times[i], 0) {
			x, y = append(x, math.Log2(float64(sizes[i]))), append(y, math.Log(times[i]))
		}
	}
	if len(x) <= MaxSizeSlopeSamples {
		return x, y
	}
	tx, ty := make([]float64, MaxSizeSlopeSamples), make([]float64, MaxSizeSlopeSamples)
	for i := range tx {
		j := i * len(x) / MaxSizeSlopeSamples
		tx[i], ty[i] = x[j], y[j]
	}
	return tx, ty
}

// pairSlopes are the slopes between every two points of different x.
func pairSlopes(x, y []float64) []float64 {
	out := make([]float64, 0, len(x)*(len(x)-1)/2)
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			if dx := x[j] - x[i]; dx != 0 {
				out = append(out, (y[j]-y[i])/dx)
			}
		}
	}
	return out
}

// kendallVariance is the variance of Kendall's S under independence,
// corrected for ties in x and in y.
func kendallVariance(x, y []float64) float64 {
	n := float64(len(x))
	v := n * (n - 1) * (2*n + 5)
	for _, t := range tieCounts(x) {
		v -= t * (t - 1) * (2*t + 5)
	}
	for _, t := range tieCounts(y) {
		v -= t * (t - 1) * (2*t + 5)
	}
	return math.Max(v/18, 0)
}

// tieCounts are the sizes of the groups of equal values, for groups of two
// or more.
func tieCounts(v []float64) []float64 {
	var out []float64
	for _, n := range groups(v) {
		if n > 1 {
			out = append(out, float64(n))
		}
	}
	return out
}

func distinct(v []float64) int { return len(groups(v)) }

// groups is the number of values in each group of equal values.
func groups(v []float64) []int {
	s := slices.Clone(v)
	slices.Sort(s)
	var out []int
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		out = append(out, j-i)
		i = j
	}
	return out
}

func clampRank(r float64, n int) int {
	return int(math.Max(0, math.Min(r, float64(n-1))))
}

// perDoubling turns a slope of ln time per doubling into percent.
func perDoubling(b float64) float64 { return 100 * math.Expm1(b) }
