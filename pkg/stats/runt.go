package stats

import (
	"maps"
	"math"
	"slices"
)

// The t interval over process blocks. With few paired blocks the BCa
// interval of the ratio of medians falls short of its level (0.73 at 5
// blocks, 0.89 at 10): its bias correction and acceleration are read off
// the lumpy bootstrap distribution of a median of a few values. Each
// block's log-ratio ln(c/b) is one replicate of the comparison, so the
// crossover mean of those log-ratios with Student's t on the blocks'
// own degrees of freedom is exact for normal block effects at any
// number of blocks, and nearly so for the heavier tails the simulation
// tries (TestRunTable). Below MinBCaPairs paired blocks a process-level
// comparison uses it.

// RunMethodT is the run comparison's method below MinBCaPairs: the t
// interval of the crossover mean of the pairs' log-ratios.
const RunMethodT = "t"

// MinBCaPairs is the fewest paired blocks a process-level comparison
// takes the BCa interval over; below it the t interval (RunMethodT).
// Chosen by the whole run simulation table (TestRunTable): the t
// interval covers 0.93 to 0.98 on every model without drift at 5 to 80
// pairs; the BCa interval covers 0.93 to 0.97 on all of them at 80, and
// falls short at 40 (0.922 without strata, 0.927 with a leader effect),
// 20 (0.92) and fewer (0.71 at 5).
const MinBCaPairs = 80

// RunTMethod describes the t interval in one line, for help text.
const RunTMethod = "Student's t over paired blocks: the crossover mean of the blocks' log-ratios ln(c/b) (the mean of each orientation stratum's mean, when each stratum has two or more blocks), its standard error from the pooled within-stratum spread, K minus the number of strata degrees of freedom"

// pairedT returns the estimate of the direction-aware improvement and
// its t interval at conf percent from complete pairs, with strata (nil
// when unknown) as in CompareRunsPaired.
func pairedT(base, cand []float64, strata []int, dir Direction, conf float64) (est, lo, hi float64) {
	groups := map[int][]float64{}
	for i := range base {
		label := 0
		if strata != nil {
			label = strata[i]
		}
		groups[label] = append(groups[label], ln(cand[i]/base[i]))
	}
	var gs [][]float64
	for _, label := range slices.Sorted(maps.Keys(groups)) {
		gs = append(gs, slices.Sorted(slices.Values(groups[label]))) // the pairs' order must not reach the sums
	}
	if slices.ContainsFunc(gs, func(g []float64) bool { return len(g) < 2 }) {
		all := make([]float64, 0, len(base))
		for _, g := range gs {
			all = append(all, g...)
		}
		gs = [][]float64{all}
	}
	center, se, df := crossoverMean(gs)
	if se <= 1e-12 {
		se = 0 // pairs in proportion, up to rounding
	}
	half := studentQuantile(1-(1-conf/100)/2, df) * se
	a, b, c := improvementOfLog(center, dir), improvementOfLog(center-half, dir), improvementOfLog(center+half, dir)
	return a, min(b, c), max(b, c)
}

// crossoverMean is the mean of the groups' means, its standard error
// from the pooled within-group variance, and the degrees of freedom of
// that variance.
func crossoverMean(gs [][]float64) (center, se, df float64) {
	var ss, inv float64
	n := 0
	for _, g := range gs {
		m := Mean(g)
		center += m / float64(len(gs))
		for _, v := range g {
			ss += (v - m) * (v - m)
		}
		inv += 1 / float64(len(g))
		n += len(g)
	}
	df = float64(n - len(gs))
	g := float64(len(gs))
	return center, math.Sqrt(ss / df * inv / (g * g)), df
}

// improvementOfLog is the improvement in percent of a log-ratio
// ln(c/b) of the candidate's statistic over the baseline's.
func improvementOfLog(d float64, dir Direction) float64 {
	if dir == HigherIsBetter {
		return 100 * math.Expm1(d)
	}
	return -100 * math.Expm1(d)
}
