package csv

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
)

// baselineCSVRows are the baseline comparisons as csv rows of kind
// "baseline": the reference columns name the baseline's case.
func baselineCSVRows(r *model.Run) []csvRow {
	var rows []csvRow
	for i := range r.Baseline {
		k := &r.Baseline[i]
		row := comparisonRow(r, k)
		row.set("kind", "baseline")
		row.set("name", k.ReferenceName)
		b := r.Analysis.Baseline
		row.set("baseline_run_id", b.RunID)
		row.set("baseline_file", b.File)
		row.set("baseline_normalized", fmt.Sprint(k.Normalized))
		fields := make([]string, len(b.Allowed))
		for j, m := range b.Allowed {
			fields[j] = m.Field
		}
		row.set("allowed_mismatches", strings.Join(fields, " "))
		rows = append(rows, row)
	}
	return rows
}
