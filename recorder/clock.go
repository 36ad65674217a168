package recorder

import (
	"slices"
	"time"
)

// clockBackend names the clock every span is timed with.
const clockBackend = "Go monotonic clock (time.Now)"

// clock characterizes the monotonic clock roughly, at Start: the
// resolution the platform reports (or the smallest observed step where it
// reports none), the smallest positive step between adjacent reads, and
// the cost of one read (the median and least of 1000 pairs of reads).
func clock() clockInfo {
	const n = 1000
	reads := make([]float64, n)
	step := time.Duration(1 << 62)
	for i := range reads {
		t0 := time.Now()
		d := time.Since(t0)
		reads[i] = float64(d)
		for d == 0 {
			d = time.Since(t0)
		}
		step = min(step, d)
	}
	slices.Sort(reads)
	nominal := nominalResolution()
	if nominal <= 0 {
		nominal = float64(step)
	}
	return clockInfo{Backend: clockBackend, NominalNS: nominal, ObservedStepNS: float64(step),
		ReadMedianNS: reads[n/2], ReadMinNS: reads[0]}
}
