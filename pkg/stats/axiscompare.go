package stats

import (
	"errors"
	"fmt"
	"math"
)

// errNotPositive refuses a relative comparison of values that are not all
// positive.
var errNotPositive = errors.New("a relative comparison needs every value on both sides positive; a pair has a zero or negative value")

// CompareAxis compares a resource axis sampled on the same pairs as the
// timings. When every value on both sides is positive it uses
// RelativeRatio, the series ln(con/ref) like ComparePaired; otherwise
// (zeros or signed values, where ratios are undefined) it uses
// AbsoluteDifference, the series con-ref. Either way the estimate and
// interval are those of ComparePaired for b's Estimator: the robust
// crossover Location of the series (first[i] says whether the reference
// ran first in pair i; nil when unknown) with LocationInterval, or under
// EstimatorLegacy the mean with MeanIntervalAuto.
//
// Verdicts follow dir. Diagnostic axes always get AxisDiagnostic, with the
// interval still computed. RelativeRatio claims equivalence when the whole
// interval lies within ±thresholdPct and a better or worse side when it
// clears the threshold on that side. AbsoluteDifference has no relative
// threshold: a side wins when the interval excludes zero, the comparison
// is practically equivalent only when every pair is equal (the interval
// is [0,0], e.g. no bytes written by either side), and inconclusive
// otherwise.
func CompareAxis(ref, con []float64, first []bool, dir Direction, b Bootstrap, thresholdPct float64, stream string) (AxisComparison, error) {
	m := RelativeRatio
	if !allPositive(ref) || !allPositive(con) {
		m = AbsoluteDifference
	}
	return CompareAxisMethod(ref, con, first, m, dir, b, thresholdPct, stream)
}

// CompareAxisMethod is CompareAxis with the method chosen by the caller, for
// axes that declare how they are compared. RelativeRatio refuses a pair
// with a zero or negative value rather than silently changing meaning.
func CompareAxisMethod(ref, con []float64, first []bool, m Method, dir Direction, b Bootstrap, thresholdPct float64, stream string) (AxisComparison, error) {
	if err := checkSettings(b, thresholdPct); err != nil {
		return AxisComparison{}, err
	}
	if err := checkAxis(ref, con, dir); err != nil {
		return AxisComparison{}, err
	}
	if first != nil && len(first) != len(ref) {
		return AxisComparison{}, fmt.Errorf("order flags cover %d pairs but there are %d", len(first), len(ref))
	}
	if m == RelativeRatio && (!allPositive(ref) || !allPositive(con)) {
		return AxisComparison{}, errNotPositive
	}
	a := AxisComparison{N: len(ref), RefMedian: Median(ref), ConMedian: Median(con), Method: m}
	series := make([]float64, len(ref))
	for i := range series {
		if a.Method == RelativeRatio {
			series[i] = ln(con[i] / ref[i])
		} else {
			series[i] = con[i] - ref[i]
		}
	}
	if e := b.estimator(); e == EstimatorLegacy {
		lo, hi, block := b.MeanIntervalAuto(series, stream)
		a.BlockLen = block
		a.Change, a.Lo, a.Hi = Mean(series), lo, hi
	} else {
		loc := Locate(series, first, e == EstimatorRobust)
		lo, hi, block := b.LocationInterval(loc.Pseudo, stream)
		a.BlockLen, a.Rejected = block, loc.Rejected
		a.Change, a.Lo, a.Hi = loc.Center, lo, hi
	}
	if a.Method == RelativeRatio {
		a.Change, a.Lo, a.Hi = 100*expm1(a.Change), 100*expm1(a.Lo), 100*expm1(a.Hi)
	}
	a.Verdict = a.judge(dir, thresholdPct, b.estimator() != EstimatorLegacy)
	return a, nil
}

// judge turns the interval into a verdict for the axis direction.
// noChange lets an absolute difference that is exactly [0,0] read as
// practically equivalent; the legacy estimator called it inconclusive.
func (a AxisComparison) judge(dir Direction, thresholdPct float64, noChange bool) AxisVerdict {
	if dir == Diagnostic {
		return AxisDiagnostic
	}
	if a.Method == AbsoluteDifference {
		thresholdPct = 0
	}
	lower, higher := ContenderBetter, ReferenceBetter
	if dir == HigherIsBetter {
		lower, higher = higher, lower
	}
	switch Classify(a.Lo, a.Hi, thresholdPct) {
	case ContenderFaster: // contender lower on this axis
		return lower
	case ReferenceFaster: // contender higher
		return higher
	case Equivalent:
		if a.Method == RelativeRatio || noChange && a.Lo == 0 && a.Hi == 0 {
			return AxisEquivalent
		}
	}
	return AxisInconclusive
}

// checkAxis rejects misaligned, too short or non-finite axis samples.
func checkAxis(ref, con []float64, dir Direction) error {
	if dir < LowerIsBetter || dir > Diagnostic {
		return fmt.Errorf("unknown direction %d", int(dir))
	}
	if len(ref) != len(con) {
		return fmt.Errorf("reference has %d samples but contender has %d: pairs must align", len(ref), len(con))
	}
	if len(ref) < 2 {
		return fmt.Errorf("%d pairs: need at least 2", len(ref))
	}
	for i := range ref {
		if math.IsNaN(ref[i]+con[i]) || math.IsInf(ref[i], 0) || math.IsInf(con[i], 0) {
			return fmt.Errorf("pair %d is (%g, %g): values must be finite", i, ref[i], con[i])
		}
	}
	return nil
}

func allPositive(x []float64) bool {
	for _, v := range x {
		if !(v > 0) {
			return false
		}
	}
	return true
}
