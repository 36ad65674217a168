package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// ar1 returns n values of a stationary Gaussian AR(1) process
// x[t] = phi*x[t-1] + e[t], e ~ N(0, sigma²), started from its stationary
// distribution so there is no burn-in transient.
func ar1(r *rand.Rand, n int, phi, sigma float64) []float64 {
	x := make([]float64, n)
	prev := r.NormFloat64() * sigma / math.Sqrt(1-phi*phi)
	for i := range x {
		if i > 0 {
			prev = phi*prev + r.NormFloat64()*sigma
		}
		x[i] = prev
	}
	return x
}

// pairsFromLogRatios builds positive reference and contender times whose
// log-ratios ln(ref/con) are exactly d, riding on a common drifting base
// (a slow upward trend plus shared noise) that the pairing should cancel.
func pairsFromLogRatios(r *rand.Rand, d []float64) (ref, con []float64) {
	ref, con = make([]float64, len(d)), make([]float64, len(d))
	for i, v := range d {
		base := 1000 * (1 + 0.01*float64(i)) * math.Exp(0.1*r.NormFloat64())
		ref[i] = base * math.Exp(v/2)
		con[i] = base * math.Exp(-v/2)
	}
	return ref, con
}

func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}

var testBootstrap = Bootstrap{Seed: 1, Resamples: 1000, Confidence: 95}

func nan() float64 { return math.NaN() }

// sortedCopy returns an ascending copy of x, leaving x untouched.
func sortedCopy(x []float64) []float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s
}
