package probes

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// DefaultReads is the number of read pairs Characterize takes when asked for
// none: enough for a stable median at a few milliseconds of cost.
const DefaultReads = 10000

// Characterize measures a clock by taking reads pairs of back-to-back reads.
// Each pair's difference is one adjacent-read cost; ObservedStepNS is the
// smallest positive difference (0 if every pair read the same value), and
// ReadMedianNS and ReadMinNS are the median and minimum over all pairs,
// zeros included: on a clock coarser than its own read cost most pairs see
// no tick, and the minimum cost it can show is 0. nominalNS is the platform
// resolution, passed in so that tests need no real clock. SubtractNS is left
// 0; the caller sets it when timer-cost subtraction is enabled.
func Characterize(c Clock, backend string, nominalNS float64, reads int) ndjson.Clock {
	if reads <= 0 {
		reads = DefaultReads
	}
	diffs := make([]int64, reads)
	for i := range diffs {
		a := c.Now()
		b := c.Now()
		diffs[i] = max(b-a, 0)
	}
	slices.Sort(diffs)
	return ndjson.Clock{
		Backend:        backend,
		NominalNS:      nominalNS,
		ObservedStepNS: float64(smallestPositive(diffs)),
		ReadMedianNS:   median(diffs),
		ReadMinNS:      float64(diffs[0]),
	}
}

// smallestPositive returns the first positive value of sorted, or 0.
func smallestPositive(sorted []int64) int64 {
	i, _ := slices.BinarySearch(sorted, 1)
	if i == len(sorted) {
		return 0
	}
	return sorted[i]
}

// median of a sorted, non-empty slice; the mean of the middle two when even.
func median(sorted []int64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return float64(sorted[n/2])
	}
	return (float64(sorted[n/2-1]) + float64(sorted[n/2])) / 2
}

// observedResolution is the smallest positive difference over reads pairs of
// adjacent reads of c, for a platform clock whose resolution nothing
// reports. It bounds the resolution from above: a clock finer than its own
// read cost shows the read cost.
func observedResolution(c Clock, reads int) (float64, error) {
	var step int64
	for range reads {
		a := c.Now()
		if d := c.Now() - a; d > 0 && (step == 0 || d < step) {
			step = d
		}
	}
	if step == 0 {
		return 0, fmt.Errorf("the clock did not advance over %d adjacent reads", reads)
	}
	return float64(step), nil
}
