// Package changepoint finds level shifts in a series: E-divisive means
// (Matteson and James 2014, "A nonparametric approach for multiple change
// point analysis of multivariate data"), the energy-distance divergence
// between the values before and after a split, maximized by binary
// segmentation, each split kept only when a seeded permutation test finds
// it significant. Pure functions of numbers and a seed.
package changepoint

import (
	"math/rand/v2"
	"slices"
	"sort"
)

// Options are the detector's settings.
type Options struct {
	// Level is the permutation test's significance level: a split is kept
	// when its p-value is at most Level.
	Level float64
	// Permutations is the number of random reorderings each test draws.
	Permutations int
	// MinSize is the fewest points a segment may keep on each side.
	MinSize int
	// Seed makes the permutations, hence the result, deterministic.
	Seed uint64
}

// DefaultOptions are the detector's defaults: 1% significance from 199
// permutations (the smallest p-value is 1/200), segments of 3 points or
// more.
var DefaultOptions = Options{Level: 0.01, Permutations: 199, MinSize: 3, Seed: 1}

// Change is one level shift: Index is the first point of the new level.
// Before and After are the medians of the segments on either side (up to
// the neighbouring changes), P the permutation test's p-value and Q the
// divergence statistic at the split.
type Change struct {
	Index  int
	Before float64
	After  float64
	P      float64
	Q      float64
}

// Detect returns the change points of x in index order.
func Detect(x []float64, opt Options) []Change {
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))
	var cuts []int
	var found []Change
	var split func(lo, hi int)
	split = func(lo, hi int) {
		tau, q, ok := best(x[lo:hi], opt.MinSize)
		if !ok {
			return
		}
		p := pValue(x[lo:hi], q, opt, rng)
		if p > opt.Level {
			return
		}
		cuts = append(cuts, lo+tau)
		found = append(found, Change{Index: lo + tau, P: p, Q: q})
		split(lo, lo+tau)
		split(lo+tau, hi)
	}
	split(0, len(x))
	slices.SortFunc(found, func(a, b Change) int { return a.Index - b.Index })
	for i := range found {
		start, end := 0, len(x)
		if i > 0 {
			start = found[i-1].Index
		}
		if i+1 < len(found) {
			end = found[i+1].Index
		}
		found[i].Before = median(x[start:found[i].Index])
		found[i].After = median(x[found[i].Index:end])
	}
	return found
}

// best is the split tau of x (x[:tau] | x[tau:]) maximizing the scaled
// energy divergence Q, with at least min points on each side.
func best(x []float64, min int) (tau int, q float64, ok bool) {
	n := len(x)
	min = max(min, 2)
	if n < 2*min {
		return 0, 0, false
	}
	// left[t] = sum of |x_i - x_t| over i < t; right[t] over j > t.
	left, right := make([]float64, n), make([]float64, n)
	var total float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := abs(x[i] - x[j])
			right[i] += d
			left[j] += d
			total += d
		}
	}
	// within X, within Y, across, for tau = 0: X empty.
	var a, c float64
	b := total
	for t := 0; t < n-min; t++ {
		// Move x[t] from Y to X.
		a += left[t]
		b -= right[t]
		c += right[t] - left[t]
		m, k := float64(t+1), float64(n-t-1)
		if t+1 < min {
			continue
		}
		e := 2*c/(m*k) - a/(m*(m-1)/2) - b/(k*(k-1)/2)
		if s := m * k / (m + k) * e; !ok || s > q {
			tau, q, ok = t+1, s, true
		}
	}
	return tau, q, ok
}

// pValue is the share of permutations of x whose best split is at least
// as strong as q, counting x itself: (hits+1)/(permutations+1).
func pValue(x []float64, q float64, opt Options, rng *rand.Rand) float64 {
	y := slices.Clone(x)
	hits := 0
	for range opt.Permutations {
		rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
		if _, qp, ok := best(y, opt.MinSize); ok && qp >= q {
			hits++
		}
	}
	return float64(hits+1) / float64(opt.Permutations+1)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
