package csv

import (
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// setFamily fills the family columns, the same on every row of a run.
func (row csvRow) setFamily(r *model.Run) {
	if r.Analysis == nil || r.Analysis.Family == nil {
		return
	}
	f := r.Analysis.Family
	row.set("multiplicity", f.Method)
	row.set("family", f.Scope)
	row.set("family_m", strconv.Itoa(f.M))
	row.set("family_confidence_pct", model.Plain(f.FamilyConfidencePct))
	row.set("per_comparison_pct", model.Plain(f.PerComparisonPct))
}

// setLevel fills a long row's interval level and, when the comparison is
// in the run's family, the family's size. An axis outside the family
// (AxisConfidencePct) has its own level and no family.
func (row longRow) setLevel(r *model.Run, k *ndjson.Comparison, a *ndjson.AxisComparison, first bool) {
	if a.Result == nil || a.Result.Method == ndjson.AxisMethodExact {
		return // no interval
	}
	level := k.ConfidencePct
	var f *ndjson.Family
	if r.Analysis != nil {
		f = r.Analysis.Family
	}
	inFamily := f != nil && (first || f.Scope == ndjson.FamilyAll && a.Direction != model.AxisDiagnostic)
	if f != nil && !first && f.AxisConfidencePct != 0 && !inFamily {
		level = f.AxisConfidencePct
	}
	if level != 0 {
		row.set("confidence_pct", model.Plain(level))
	}
	if inFamily {
		row.set("family_m", strconv.Itoa(f.M))
	}
}
