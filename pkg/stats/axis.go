package stats

import "fmt"

// Direction says which way a resource axis is favourable.
type Direction int

const (
	LowerIsBetter  Direction = iota // less resource used is better (CPU time, faults)
	HigherIsBetter                  // more is better (instructions per cycle)
	Diagnostic                      // no general direction; reported, never judged
)

func (d Direction) String() string {
	switch d {
	case LowerIsBetter:
		return "lower is better"
	case HigherIsBetter:
		return "higher is better"
	case Diagnostic:
		return "diagnostic"
	}
	return fmt.Sprintf("Direction(%d)", int(d))
}

// Method says how an axis comparison measures change.
type Method int

const (
	RelativeRatio      Method = iota // percent change from paired ratios; needs positive values
	AbsoluteDifference               // paired differences in the axis unit
)

func (m Method) String() string {
	switch m {
	case RelativeRatio:
		return "relative ratio"
	case AbsoluteDifference:
		return "absolute difference"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// AxisVerdict is the practical conclusion of a resource-axis comparison.
type AxisVerdict int

const (
	AxisInconclusive AxisVerdict = iota
	AxisEquivalent
	ContenderBetter
	ReferenceBetter
	AxisDiagnostic
)

func (v AxisVerdict) String() string {
	switch v {
	case AxisInconclusive:
		return "inconclusive"
	case AxisEquivalent:
		return "practically equivalent"
	case ContenderBetter:
		return "contender better"
	case ReferenceBetter:
		return "reference better"
	case AxisDiagnostic:
		return "diagnostic"
	}
	return fmt.Sprintf("AxisVerdict(%d)", int(v))
}

// AxisComparison is the paired comparison of one resource axis.
type AxisComparison struct {
	N                    int
	Method               Method
	RefMedian, ConMedian float64
	// Change, Lo, Hi: for RelativeRatio the contender's relative change in
	// percent and its interval, for AbsoluteDifference the difference
	// con-ref and its interval, in the axis unit; both from the decision
	// estimate of the paired series (Bootstrap.Estimator: under the
	// default, the robust crossover location; under EstimatorLegacy the
	// mean, i.e. the geometric mean of con/ref for ratios).
	Change, Lo, Hi float64
	BlockLen       int
	// Rejected counts the pairs the robust estimate gave no weight.
	Rejected int
	Verdict  AxisVerdict
}
