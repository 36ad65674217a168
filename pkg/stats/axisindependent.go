package stats

import (
	"fmt"
	"math"
)

// CompareAxisIndependent is CompareAxis for a resource axis observed in
// separate series rather than in pairs, such as sequential blocks. Like
// CompareIndependent it resamples each side on its own, with its own
// BlockLength and stream (stream+"/con", stream+"/ref"), because with no
// pairing there is no shared drift to cancel. RelativeRatio compares
// geometric means, AbsoluteDifference means, con against ref; verdicts
// follow CompareAxis. N is the smaller side's count and BlockLen the
// larger of the two block lengths.
func CompareAxisIndependent(ref, con []float64, dir Direction, b Bootstrap, thresholdPct float64, stream string) (AxisComparison, error) {
	if err := checkSettings(b, thresholdPct); err != nil {
		return AxisComparison{}, err
	}
	if err := checkAxisSides(ref, con, dir); err != nil {
		return AxisComparison{}, err
	}
	a := AxisComparison{N: min(len(ref), len(con)), RefMedian: Median(ref), ConMedian: Median(con)}
	x, y := con, ref
	if allPositive(ref) && allPositive(con) {
		x, y = logs(con), logs(ref)
	} else {
		a.Method = AbsoluteDifference
	}
	blockX, blockY := BlockLength(x), BlockLength(y)
	a.BlockLen = max(blockX, blockY)
	lo, hi := b.differenceInterval(x, y, blockX, blockY, stream+"/con", stream+"/ref")
	a.Change, a.Lo, a.Hi = Mean(x)-Mean(y), lo, hi
	if a.Method == RelativeRatio {
		a.Change, a.Lo, a.Hi = 100*expm1(a.Change), 100*expm1(lo), 100*expm1(hi)
	}
	a.Verdict = a.judge(dir, thresholdPct, b.estimator() != EstimatorLegacy)
	return a, nil
}

// checkAxisSides rejects an unknown direction and sides too short or not
// finite.
func checkAxisSides(ref, con []float64, dir Direction) error {
	if dir < LowerIsBetter || dir > Diagnostic {
		return fmt.Errorf("unknown direction %d", int(dir))
	}
	for _, side := range []struct {
		name string
		x    []float64
	}{{"reference", ref}, {"contender", con}} {
		if len(side.x) < 2 {
			return fmt.Errorf("%s has %d samples: need at least 2", side.name, len(side.x))
		}
		for i, v := range side.x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s sample %d is %g: values must be finite", side.name, i, v)
			}
		}
	}
	return nil
}
