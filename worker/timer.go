package worker

import "time"

// observedStep is the smallest positive difference between consecutive
// monotonic clock reads, in nanoseconds: an upper bound of the resolution.
func observedStep() float64 {
	best := time.Duration(1 << 62)
	for range 1000 {
		t0 := time.Now()
		d := time.Since(t0)
		for d == 0 {
			d = time.Since(t0)
		}
		best = min(best, d)
	}
	return float64(best)
}
