package check

import (
	"fmt"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Verdicts of an exact axis comparison (ndjson.AxisMethodExact), as the
// schema's doc comment of AxisMethodExact and fb-stream(5) name them:
// fb-analyze writes "no change", "increased" or "decreased" for values
// that are constant within each case, and "not deterministic" when they
// are not.
const (
	verdictNotDeterministic = "not deterministic"
)

// isCounter reports whether an axis is a deterministic count: compared
// exactly, or named exact by the run (a counter record, a custom axis
// declared exact) even when it has no result.
func isCounter(a *ndjson.AxisComparison, exact map[string]bool) bool {
	if a.Result != nil {
		return a.Result.Method == ndjson.AxisMethodExact
	}
	return exact[a.Name]
}

// counterItem checks a deterministic count: there is no noise to
// forgive, so any change the wrong way fails (an increase of a
// lower-is-better count, a decrease of a higher-is-better one), and so
// does a count that was not deterministic. A diagnostic count has no
// better direction and is reported, not judged.
//
// A simulated count (instructions_sim) of a program whose runtime runs
// background threads varies by a fraction of a percent between
// executions: when its ranges overlap ("not deterministic") nothing
// beyond that spread changed, and the item passes saying so; a
// separated increase still fails. A custom axis declared exact that
// varies fails: its owner promised a deterministic count.
func counterItem(c *ndjson.Comparison, a *ndjson.AxisComparison, simulated bool) ndjson.CheckItem {
	it := newItem(KindCounter, c, a.Name)
	it.Unit = a.Unit
	if !a.Available || a.Result == nil {
		return skip(it, unavailable(a))
	}
	r := a.Result
	if !finite(r.Change) {
		return skip(it, "no finite difference")
	}
	it.Value = r.Change
	what := changedBy(r.Change, a.Unit)
	switch {
	case r.Verdict == verdictNotDeterministic && simulated:
		return pass(it, fmt.Sprintf("varies between executions (its ranges overlap): no change beyond the spread; median %s", what))
	case r.Verdict == verdictNotDeterministic:
		return fail(it, "not deterministic: the values vary within a case, so the count cannot gate; make it deterministic or compare it as a sampled axis")
	case axes.Direction(a.Direction) == axes.Diagnostic:
		return skip(it, what+": a diagnostic count, reported and not judged")
	case worse(r.Change, a.Direction):
		return fail(it, what+": any change for the worse fails a deterministic count")
	}
	return pass(it, what)
}

// worse reports whether a change of a count goes the wrong way for its
// direction (higher is better, anything else lower).
func worse(change float64, direction string) bool {
	if axes.Direction(direction) == axes.HigherIsBetter {
		return change < 0
	}
	return change > 0
}

// changedBy says how a count changed.
func changedBy(change float64, unit string) string {
	switch {
	case change > 0:
		return fmt.Sprintf("increased by %s", quantity(change, unit))
	case change < 0:
		return fmt.Sprintf("decreased by %s", quantity(-change, unit))
	}
	return "no change"
}

// simulated reports whether the run's axis of that name is a simulated
// count (family "simulated": instructions under cachegrind).
func simulated(r *ndjson.Run, name string) bool {
	for _, a := range r.Axes {
		if a.Name == name {
			return a.Family == axes.FamilySimulated
		}
	}
	return false
}
