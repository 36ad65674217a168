package stats

import "math/rand/v2"

// circular holds prefix sums of a series laid twice end to end, so the
// sum of any block, wrapped or not, is one subtraction and a resample
// mean costs O(n/L) instead of O(n).
//
// The sums are of deviations from the series mean: they stay small, which
// keeps the subtraction precise, and a constant series resamples to
// exactly its own value.
type circular struct {
	center float64
	prefix []float64 // prefix[k] = sum of the first k deviations of x+x
}

func newCircular(x []float64) circular {
	n := len(x)
	center := Mean(x)
	prefix := make([]float64, 2*n+1)
	for k := range 2 * n {
		prefix[k+1] = prefix[k] + (x[k%n] - center)
	}
	return circular{center: center, prefix: prefix}
}

// resampleMean draws one circular-block resample with blocks of length
// block (1 <= block <= n) and returns its mean.
func (c circular) resampleMean(r *rand.PCG, block int) float64 {
	n := len(c.prefix) / 2
	var sum float64
	for filled := 0; filled < n; filled += block {
		start := index(r, n)
		sum += c.prefix[start+min(block, n-filled)] - c.prefix[start]
	}
	return c.center + sum/float64(n)
}
