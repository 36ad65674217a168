package stats

import (
	"fmt"
	"math"
)

// IntervalMethod describes in one line how every interval is computed,
// for output records and help text.
const IntervalMethod = "studentized circular-block bootstrap (percentile-t) of the mean: t* = (mean* - mean)/se* with se* from each resample's own block sums, interval [mean - t*(1-a/2)*se, mean - t*(a/2)*se] with se the flat-top lag-window standard error of the mean, clamped to the data range"

// Bootstrap holds the deterministic resampling settings: the same settings,
// data and stream label always give the same interval.
type Bootstrap struct {
	Seed       uint64
	Resamples  int     // 100..10000
	Confidence float64 // percent, 50..99.9
	// Estimator is the decision estimate of paired comparisons; the zero
	// value is EstimatorRobust.
	Estimator Estimator
}

// Estimator names how a paired comparison estimates and bounds the
// difference it decides on.
type Estimator string

const (
	// EstimatorRobust is the biweight crossover Location with
	// LocationInterval: outlying pairs and the leader effect leave the
	// interval (the default).
	EstimatorRobust Estimator = "robust"
	// EstimatorMean is the crossover mean (every pair at full weight,
	// order groups averaged) with LocationInterval, for when rare slow
	// runs are part of what is being compared.
	EstimatorMean Estimator = "mean"
	// EstimatorLegacy is the method of stream schema 1.2 and earlier: the
	// geometric mean with MeanIntervalAuto. It reproduces archived
	// analyses byte for byte.
	EstimatorLegacy Estimator = "legacy"
)

// ParseEstimator reads an estimator name.
func ParseEstimator(s string) (Estimator, error) {
	switch e := Estimator(s); e {
	case EstimatorRobust, EstimatorMean, EstimatorLegacy:
		return e, nil
	}
	return "", fmt.Errorf("estimator %q: use robust, mean or legacy", s)
}

func (b Bootstrap) estimator() Estimator {
	if b.Estimator == "" {
		return EstimatorRobust
	}
	return b.Estimator
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

// MeanInterval returns the studentized circular-block bootstrap interval
// (IntervalMethod) of the mean of the time-ordered series x, resampling
// blocks of length block.
//
// A percentile interval of resampled means inherits the block
// bootstrap's variance, which short blocks bias low under serial
// correlation: at 50 pairs with AR(1) noise (phi = 0.5) nominal 95%
// intervals covered about 82% of the time. Studentizing takes the scale
// from a flat-top lag-window standard error, which that bias does not
// touch, and the shape, including the extra width that a standard error
// estimated from few effective observations calls for, from the
// replicates t*. The stream label is mixed into the seed so that
// different statistics of one analysis use independent, reproducible
// random streams. b should pass Validate; empty x or Resamples < 1 gives
// NaN. A series with no spread, or one block covering all of it, gives
// the degenerate interval [mean, mean].
func (b Bootstrap) MeanInterval(x []float64, block int, stream string) (lo, hi float64) {
	if len(x) == 0 || b.Resamples < 1 {
		return math.NaN(), math.NaN()
	}
	return b.meanInterval(x, newAutocovariance(x), block, stream)
}

// MeanIntervalAuto is MeanInterval with the block length BlockLength
// chooses, which it also returns; the two share one set of
// autocovariances, the costly part of both for long series.
func (b Bootstrap) MeanIntervalAuto(x []float64, stream string) (lo, hi float64, block int) {
	if len(x) == 0 || b.Resamples < 1 {
		return math.NaN(), math.NaN(), 1
	}
	a := newAutocovariance(x)
	block = 1
	if len(x) >= 8 {
		block = newLagWindow(a).blockLength()
	}
	lo, hi = b.meanInterval(x, a, block, stream)
	return lo, hi, block
}

func (b Bootstrap) meanInterval(x []float64, a *autocovariance, block int, stream string) (lo, hi float64) {
	bs := newBlockSums(x, a, block)
	se := math.Sqrt(meanVariance(a, bs))
	if se == 0 || bs.count == 1 {
		return bs.center, bs.center
	}
	return b.percentileTOf(bs, se, stream)
}
