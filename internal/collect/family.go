package collect

import (
	"fmt"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// familySpending is what a decision rule adds to stats.SpendingRule when
// its run makes more than one time comparison, fb-analyze's options
// spelled by names.
func familySpending(names field.Names) string {
	return fmt.Sprintf("; with m >= 2 comparisons, each comparison's looks spend its Bonferroni share of the error rate, alpha/m, as fb-analyze's default family (%s bonferroni %s time) replays",
		names.Spell(AnalyzeMultiplicity), names.Spell(AnalyzeFamily))
}

// fb-analyze's options a run record names, by their field paths
// (analyze.FieldMultiplicity and analyze.FieldFamily).
const (
	AnalyzeMultiplicity = "analyze.Family.Multiplicity"
	AnalyzeFamily       = "analyze.Family.Scope"
)

// perComparison is the confidence each comparison's looks share: the
// Bonferroni level of Confidence over Comparisons, so that the intervals
// the looks judge are those fb-analyze reports by default.
func (u Until) perComparison() float64 {
	level, _ := stats.BonferroniConfidence(u.Confidence, u.Comparisons)
	return level
}

// familyRule shares the stopping rule's confidence among the run's time
// comparisons, every case against the reference except reference-workload
// cases (as analyze.TimeComparisons counts them), and says so in the run
// record's description of a decision rule.
func (e *Engine) familyRule() {
	n := 0
	for _, c := range e.Run.Cases {
		if c.Role != ndjson.RoleReferenceWorkload {
			n++
		}
	}
	m := max(n-1, 0)
	e.Config.Until.Comparisons = m
	if u := e.Run.Config.Until; u != nil && u.Rule == ndjson.UntilDecision && m > 1 {
		u.Spending += familySpending(e.Names)
	}
}
