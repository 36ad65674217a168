package stats

import (
	"math/bits"
	"slices"
)

// selectPercentiles reorders x, which must be free of NaN, so that
// Percentile(x, p) gives for each of ps what it would give for x sorted:
// the ranks each type-7 percentile reads are put in place by selection,
// in expected linear time where sorting takes O(n log n).
func selectPercentiles(x []float64, ps ...float64) {
	n := len(x)
	if n == 0 {
		return
	}
	var ranks []int
	for _, p := range ps {
		lo, _ := rank7(n, p)
		ranks = append(ranks, min(lo, n-1), min(lo+1, n-1))
	}
	slices.Sort(ranks)
	selectRanks(x, slices.Compact(ranks))
}

// selectRanks reorders x so that x[r] is the value a sort would put there
// for every r in ranks (ascending, distinct): it selects the middle rank,
// which splits x into smaller and larger values, and recurses into each
// side with the ranks that fall there.
func selectRanks(x []float64, ranks []int) {
	if len(ranks) == 0 {
		return
	}
	mid := len(ranks) / 2
	r := ranks[mid]
	selectRank(x, r)
	selectRanks(x[:r], ranks[:mid])
	above := make([]int, 0, len(ranks)-mid-1)
	for _, q := range ranks[mid+1:] {
		above = append(above, q-r-1)
	}
	selectRanks(x[r+1:], above)
}

// selectRank reorders x so that x[k] is the value a sort would put there,
// with nothing larger before it and nothing smaller after it (Hoare's
// quickselect with median-of-three pivots). A partition that stops
// shrinking the range falls back to sorting it, so the worst case is
// O(n log n), and the result never depends on anything but x.
func selectRank(x []float64, k int) {
	lo, hi := 0, len(x)-1
	for budget := 2 * bits.Len(uint(len(x))); lo < hi; budget-- {
		if budget == 0 {
			slices.Sort(x[lo : hi+1])
			return
		}
		i, j := partition(x, lo, hi)
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return // j < k < i: x[k] equals the pivot and is in place
		}
	}
}

// partition splits x[lo..hi] around the median of its first, middle and
// last values into x[lo..j] <= pivot <= x[i..hi], with j < i and
// everything strictly between equal to the pivot.
func partition(x []float64, lo, hi int) (i, j int) {
	mid := lo + (hi-lo)/2
	if x[mid] < x[lo] {
		x[mid], x[lo] = x[lo], x[mid]
	}
	if x[hi] < x[mid] {
		x[hi], x[mid] = x[mid], x[hi]
		if x[mid] < x[lo] {
			x[mid], x[lo] = x[lo], x[mid]
		}
	}
	pivot := x[mid]
	i, j = lo, hi
	for i <= j {
		for x[i] < pivot {
			i++
		}
		for pivot < x[j] {
			j--
		}
		if i <= j {
			x[i], x[j] = x[j], x[i]
			i, j = i+1, j-1
		}
	}
	return i, j
}
