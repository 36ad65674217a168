package stats

import (
	"fmt"
	"math"
	"slices"
)

// Bootstrap holds the deterministic resampling settings: the same settings,
// data and stream label always give the same interval.
type Bootstrap struct {
	Seed       uint64
	Resamples  int     // 100..10000
	Confidence float64 // percent, 50..99.9
}

// Validate reports a setting outside its allowed range.
func (b Bootstrap) Validate() error {
	if b.Resamples < 100 || b.Resamples > 10000 {
		return fmt.Errorf("resamples %d out of range: use 100 to 10000", b.Resamples)
	}
	if !(b.Confidence >= 50 && b.Confidence <= 99.9) {
		return fmt.Errorf("confidence %g out of range: use 50 to 99.9 percent", b.Confidence)
	}
	return nil
}

// MeanInterval returns the circular-block bootstrap percentile interval of
// the mean of the time-ordered series x, resampling blocks of length block.
// The stream label is mixed into the seed so that different statistics of
// one analysis use independent, reproducible random streams. b should pass
// Validate; empty x or Resamples < 1 gives NaN.
func (b Bootstrap) MeanInterval(x []float64, block int, stream string) (lo, hi float64) {
	reps := b.meanReplicates(x, block, stream)
	slices.Sort(reps)
	return b.interval(reps)
}

// interval returns the equal-tailed percentile interval of sorted
// replicate statistics at the configured confidence.
func (b Bootstrap) interval(sorted []float64) (lo, hi float64) {
	tail := float64((100 - b.Confidence) / 2) // rounded: no fused multiply-add
	return Percentile(sorted, tail), Percentile(sorted, 100-tail)
}

// meanReplicates returns b.Resamples circular-block bootstrap replicates
// of the mean of x (Politis and Romano 1992), in draw order. Each
// replicate joins ceil(n/L) blocks of L consecutive observations starting
// at uniform positions and wrapping past the end, the last block cut so
// that every resample has exactly n observations.
func (b Bootstrap) meanReplicates(x []float64, block int, stream string) []float64 {
	if len(x) == 0 || b.Resamples < 1 {
		return []float64{math.NaN()}
	}
	c := newCircular(x)
	block = min(max(block, 1), len(x))
	r := newStream(b.Seed, stream)
	reps := make([]float64, b.Resamples)
	for i := range reps {
		reps[i] = c.resampleMean(r, block)
	}
	return reps
}
