package stats

import (
	"fmt"
	"math"
)

// CompareIndependent compares two separately observed series that were not
// run in pairs, such as sequential blocks. The statistic is the ratio of
// geometric means ref/con. Its interval resamples each side on its own,
// each with a circular-block bootstrap at its own BlockLength and its own
// stream (stream+"/ref", stream+"/con"), because with no pairing there is
// no shared drift to cancel and each side keeps its own serial dependence;
// differenceInterval studentizes the difference.
//
// N is the smaller side's count, MedianSpeedup is median(ref)/median(con),
// MeanDiff is mean(con)-mean(ref) and BlockLen the larger of the two block
// lengths. Lag1 and the order fields stay zero; wins and ties are counted
// by index only when both sides have the same length.
func CompareIndependent(ref, con []float64, b Bootstrap, thresholdPct float64, stream string) (Paired, error) {
	if err := checkSettings(b, thresholdPct); err != nil {
		return Paired{}, err
	}
	if err := checkSide("reference", ref); err != nil {
		return Paired{}, err
	}
	if err := checkSide("contender", con); err != nil {
		return Paired{}, err
	}
	lnRef, lnCon := logs(ref), logs(con)
	blockRef, blockCon := BlockLength(lnRef), BlockLength(lnCon)
	lo, hi := b.differenceInterval(lnRef, lnCon, blockRef, blockCon, stream+"/ref", stream+"/con")
	p := Paired{
		N:             min(len(ref), len(con)),
		MedianSpeedup: Median(ref) / Median(con),
		MeanDiff:      Mean(con) - Mean(ref),
		BlockLen:      max(blockRef, blockCon),
	}
	p.Estimator = EstimatorLegacy
	p.setSpeedup(Mean(lnRef)-Mean(lnCon), lo, hi)
	p.setGeo(Mean(lnRef)-Mean(lnCon), lo, hi)
	if len(ref) == len(con) {
		p.countWins(ref, con)
	}
	p.Verdict = Classify(p.ChangeLo, p.ChangeHi, thresholdPct)
	return p, nil
}

// differenceInterval returns the studentized interval (IntervalMethod) of
// mean(x) - mean(y) for independent series x and y. Each side is
// resampled with its own blocks and stream; replicate i pairs resample i
// of each side, and is studentized by the sum of the two resample
// variances, as Welch's t is. Two series with no spread give
// [difference, difference].
func (b Bootstrap) differenceInterval(x, y []float64, blockX, blockY int, streamX, streamY string) (lo, hi float64) {
	ax, ay := newAutocovariance(x), newAutocovariance(y)
	bx, by := newBlockSums(x, ax, blockX), newBlockSums(y, ay, blockY)
	center := bx.center - by.center
	se := math.Sqrt(meanVariance(ax, bx) + meanVariance(ay, by))
	if se == 0 || bx.count == 1 && by.count == 1 {
		return center, center
	}
	rx, ry := b.replicates(bx, streamX), b.replicates(by, streamY)
	t := make([]float64, len(rx))
	for i := range t {
		t[i] = studentize(rx[i].mean-ry[i].mean, rx[i].variance+ry[i].variance)
	}
	return b.percentileT(t, center, se, bx.floor-by.ceil, bx.ceil-by.floor)
}

// checkSide rejects a series too short to resample or with unusable times.
func checkSide(side string, x []float64) error {
	if len(x) < 2 {
		return fmt.Errorf("%s has %d samples: need at least 2", side, len(x))
	}
	return checkTimes(side, x)
}

func logs(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = ln(v)
	}
	return out
}
