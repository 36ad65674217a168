package record

import "github.com/flybench/flybench/pkg/ndjson"

// Outcome is how a span ended.
type Outcome uint8

// Outcomes, in the order tallies list them.
const (
	Success Outcome = iota
	Failure
	Timeout
	Cancelled
	numOutcomes
)

var outcomeNames = [numOutcomes]string{ndjson.OutcomeSuccess, ndjson.OutcomeFailure, ndjson.OutcomeTimeout, ndjson.OutcomeCancelled}

func (o Outcome) String() string { return outcomeNames[o] }

// IsError reports whether o counts as an error on the live display.
func (o Outcome) IsError() bool { return o == Failure || o == Timeout }

// ParseOutcome reads an outcome name.
func ParseOutcome(b []byte) (Outcome, error) {
	for i, n := range outcomeNames {
		if string(b) == n {
			return Outcome(i), nil
		}
	}
	return 0, parseErrorf("outcome %q: want success, failure, timeout or cancelled", clip(b))
}
