package stats

import "math"

// Location is the decision estimate of a paired series: a robust location
// of each order group, averaged (the crossover estimate), with the
// pseudo-values whose mean it is.
//
// Two things make the plain mean of paired log-ratios a poor decision
// statistic on a busy machine. Interference lands on one side of a pair
// (a preemption, a page-cache eviction, a load phase starting between the
// two halves) and gives the series a heavy tail of ±10–50% values, which
// widens the interval several-fold and, through the lag-window variance,
// upsets its coverage. And whichever side runs first often pays a
// leader penalty (cold caches, a frequency ramp): the order balance
// cancels it from the estimate, but it stays in the spread of the ratios.
// Location removes both: the biweight M-estimate gives values beyond
// biweightC robust standard deviations zero weight, and estimating it
// separately within the reference-first and contender-first groups and
// averaging the two takes the leader effect out of the residuals, as the
// crossover analysis of an AB/BA design does.
type Location struct {
	Fit
	// Pseudo holds, in the series' order, each value's contribution to
	// the estimate (its influence, scaled so that their mean is Center):
	// Center + n/(G·n_g)·c·σ·ψ(u)/mean ψ', with G the number of groups and
	// n_g the size of the value's group. Their long-run variance over n is
	// the estimate's variance, so the interval machinery for means applies.
	Pseudo []float64
}

// Fit is what a Location found, without its pseudo-values.
type Fit struct {
	Center float64 // the estimate: mean of the order groups' locations
	// Leader is half the gap between the reference-first and the
	// contender-first groups' locations: the shift running first gives a
	// series (0 when the groups were not separated).
	Leader float64
	// Scale is the robust standard deviation of the residuals the weights
	// are measured in; 0 when the residuals are tied (more than half
	// equal) or Fallback is set, and then every value keeps full weight.
	Scale   float64
	Blocked bool // whether the order groups were estimated separately
	// Fallback is set when the weights would have rejected more than a
	// quarter of the series; every value then keeps full weight.
	Fallback bool
	// Rejected counts values given zero weight, Low and High those below
	// and above their group's location.
	Rejected, Low, High int
}

// biweightC is the tuning constant of Tukey's biweight, in robust
// standard deviations: 95% efficiency relative to the mean for normal
// noise. Values further than this from their group's location get zero
// weight.
const biweightC = 4.685

// minGroup is the smallest order group estimated on its own; with fewer
// pairs in either order the series is treated as one group.
const minGroup = 5

// madConsistency turns a median absolute deviation into a standard
// deviation for normal data.
const madConsistency = 1.482602218505602

// Locate fits the Location of the time-ordered series x. first[i] says
// whether the reference ran first in pair i; nil means unknown, and then
// the series is one group. With robust false every value keeps full
// weight: the estimate is the crossover mean, the average of the order
// groups' means. x must be non-empty and finite.
func Locate(x []float64, first []bool, robust bool) Location {
	groups := orderGroups(x, first)
	l := Location{Fit: Fit{Blocked: len(groups) == 2}}
	medians := make([]float64, len(groups))
	dev := make([]float64, 0, len(x))
	for g, idx := range groups {
		medians[g] = Median(gather(x, idx))
		for _, i := range idx {
			dev = append(dev, math.Abs(x[i]-medians[g]))
		}
	}
	if robust {
		l.Scale = float64(madConsistency * Median(dev))
	}
	centers := l.fit(x, groups, medians)
	if l.Scale > 0 && 4*l.rejections(x, groups, centers) > len(x) {
		// Most of the series sits in a few clusters (quantized or nearly
		// tied values), where the median absolute deviation measures the
		// clusters' width, not the noise: weights from it would reject
		// ordinary values. Keep every value.
		l.Scale, l.Fallback = 0, true
		centers = l.fit(x, groups, medians)
	}
	l.Center = Mean(centers)
	if l.Blocked {
		l.Leader = (centers[0] - centers[1]) / 2
	}
	l.pseudo(x, groups, centers)
	return l
}

// fit returns each group's location.
func (l *Location) fit(x []float64, groups [][]int, medians []float64) []float64 {
	centers := make([]float64, len(groups))
	for g, idx := range groups {
		centers[g] = l.groupCenter(x, idx, medians[g])
	}
	return centers
}

// rejections counts the values the weights reject.
func (l *Location) rejections(x []float64, groups [][]int, centers []float64) int {
	cs := float64(biweightC * l.Scale)
	k := 0
	for g, idx := range groups {
		for _, i := range idx {
			if math.Abs(x[i]-centers[g]) >= cs {
				k++
			}
		}
	}
	return k
}

// orderGroups splits the indices of x by who ran first: [reference-first,
// contender-first], or a single group when the order is unknown or either
// group is smaller than minGroup.
func orderGroups(x []float64, first []bool) [][]int {
	all := make([]int, len(x))
	for i := range all {
		all[i] = i
	}
	if first == nil {
		return [][]int{all}
	}
	var ref, con []int
	for i, f := range first {
		if f {
			ref = append(ref, i)
		} else {
			con = append(con, i)
		}
	}
	if len(ref) < minGroup || len(con) < minGroup {
		return [][]int{all}
	}
	return [][]int{ref, con}
}

func gather(x []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for k, i := range idx {
		out[k] = x[i]
	}
	return out
}

// maxIterations bounds the reweighting; it converges in a handful of
// steps from the median, and the bound keeps the result a fixed function
// of the data.
const maxIterations = 50

// groupCenter is the biweight location of x over idx, by iteratively
// reweighted means from the group's median, with the shared scale. With
// no scale (tied data) it is the group's mean.
func (l *Location) groupCenter(x []float64, idx []int, median float64) float64 {
	if l.Scale == 0 {
		return Mean(gather(x, idx))
	}
	cs := float64(biweightC * l.Scale)
	m := median
	for range maxIterations {
		var sw, swx float64
		for _, i := range idx {
			w := biweightWeight((x[i] - m) / cs)
			sw += w
			swx += float64(w * (x[i] - m))
		}
		if sw == 0 {
			return m
		}
		step := swx / sw
		m += step
		if math.Abs(step) <= 1e-12*cs {
			break
		}
	}
	return m
}

// pseudo fills the pseudo-values and the rejection counts.
func (l *Location) pseudo(x []float64, groups [][]int, centers []float64) {
	n := len(x)
	l.Pseudo = make([]float64, n)
	cs := float64(biweightC * l.Scale)
	slope := 1.0 // mean ψ' over all values, in units of u
	if cs > 0 {
		var s float64
		for g, idx := range groups {
			for _, i := range idx {
				s += biweightSlope((x[i] - centers[g]) / cs)
			}
		}
		// A fit with most values in the descending part of ψ has no
		// stable slope; the floor keeps such a series' variance finite
		// and large rather than unbounded.
		slope = max(s/float64(n), 0.25)
	}
	for g, idx := range groups {
		scale := float64(n) / float64(len(groups)*len(idx))
		for _, i := range idx {
			r := x[i] - centers[g]
			infl := r
			if cs > 0 {
				u := r / cs
				infl = float64(cs*biweightPsi(u)) / slope
				if math.Abs(u) >= 1 {
					l.Rejected++
					if r < 0 {
						l.Low++
					} else {
						l.High++
					}
				}
			}
			l.Pseudo[i] = l.Center + float64(scale*infl)
		}
	}
}

// biweightWeight is Tukey's biweight weight (1-u²)² inside |u| < 1, 0 outside.
func biweightWeight(u float64) float64 {
	if math.Abs(u) >= 1 {
		return 0
	}
	t := 1 - float64(u*u)
	return float64(t * t)
}

// biweightPsi is u times its weight.
func biweightPsi(u float64) float64 {
	return float64(u * biweightWeight(u))
}

// biweightSlope is ψ'(u) = (1-u²)(1-5u²) inside |u| < 1, 0 outside.
func biweightSlope(u float64) float64 {
	if math.Abs(u) >= 1 {
		return 0
	}
	u2 := float64(u * u)
	return float64((1 - u2) * (1 - 5*u2))
}
