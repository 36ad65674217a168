package stats

import "math"

// Mean returns the arithmetic mean of x, or NaN when x is empty.
// It sums deviations from the first value, which keeps precision on
// large nearly equal values and makes the mean of a constant series
// exactly that constant.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	shift := x[0]
	var sum float64
	for _, v := range x {
		sum += v - shift
	}
	return shift + sum/float64(len(x))
}

// SD returns the sample standard deviation of x (divisor n-1), or 0 when
// there are fewer than two values and spread is undefined.
func SD(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	m := Mean(x)
	var ss float64
	for _, v := range x {
		ss += float64((v - m) * (v - m))
	}
	return math.Sqrt(ss / float64(len(x)-1))
}

// MAD returns the median absolute deviation from the median, unscaled
// (no 1.4826 normal-consistency factor), as a spread measure that a few
// wild samples cannot inflate. Empty x gives NaN.
func MAD(x []float64) float64 {
	return deviationMedian(x, Median(x), make([]float64, len(x)))
}

// deviationMedian returns the median of |v - m| over x, for MAD when the
// median m is already known, using buf (as long as x) for the deviations.
func deviationMedian(x []float64, m float64, buf []float64) float64 {
	for i, v := range x {
		buf[i] = math.Abs(v - m)
	}
	return Percentile(order(buf, 50), 50)
}
