package changepoint

import "math"

// locationLR is the 95% critical value of the likelihood ratio for where
// a level shifts: Hansen ("Sample splitting and threshold estimation",
// Econometrica 2000) shows the statistic's limit has the distribution
// P(ξ ≤ x) = (1 − e^(−x/2))², so c = −2 ln(1 − √0.95). The limit is the
// one of a small shift; a larger one is placed more surely and the set is
// conservative.
var locationLR = -2 * math.Log(1-math.Sqrt(ConfidencePct/100.0))

// locate is the range of indices where the level of seg may start anew,
// given a change found at t: every split s (a point or more a side)
// whose least-squares fit is within the likelihood ratio's critical value
// of the best split's, (S(best) − S(s)) / σ² ≤ locationLR, with S the
// between-sides sum of squares and σ² the residual variance at the best
// split, and t itself; as the smallest and largest such split. The values
// are first clipped at 3 robust SDs (1.4826 × MAD) from their side's
// median of the split at t, so that an outlier does not make the least
// squares' profile flat.
func locate(seg []float64, t int) [2]int {
	x := clipped(seg, t)
	n := len(x)
	var total float64
	for _, v := range x {
		total += v
	}
	s := make([]float64, n)
	best, at := math.Inf(-1), t
	sum := 0.0
	for i := 1; i < n; i++ {
		sum += x[i-1]
		m, k := float64(i), float64(n-i)
		d := sum/m - (total-sum)/k
		if s[i] = m * k / (m + k) * d * d; s[i] > best {
			best, at = s[i], i
		}
	}
	r := [2]int{t, t}
	v := splitVariance(x, at)
	if !(v > 0) {
		return r
	}
	for i := 1; i < n; i++ {
		if (best-s[i])/v <= locationLR {
			r[0], r[1] = min(r[0], i), max(r[1], i)
		}
	}
	return r
}

// splitVariance is the residual variance of x about its two sides' means
// split at t (n − 2 degrees of freedom).
func splitVariance(x []float64, t int) float64 {
	if len(x) < 3 || t < 1 || t >= len(x) {
		return 0
	}
	ml, _ := meanVar(x[:t])
	mr, _ := meanVar(x[t:])
	var rss float64
	for i, v := range x {
		m := ml
		if i >= t {
			m = mr
		}
		rss += (v - m) * (v - m)
	}
	return rss / float64(len(x)-2)
}

// clipped is seg with every value clipped to 3 robust SDs from the median
// of its side of the split at t.
func clipped(seg []float64, t int) []float64 {
	l, r := median(seg[:t]), median(seg[t:])
	side := func(i int) float64 {
		if i >= t {
			return r
		}
		return l
	}
	dev := make([]float64, len(seg))
	for i, v := range seg {
		dev[i] = math.Abs(v - side(i))
	}
	sd := 1.4826 * median(dev)
	out := make([]float64, len(seg))
	for i, v := range seg {
		m := side(i)
		out[i] = math.Max(m-3*sd, math.Min(m+3*sd, v))
	}
	return out
}
