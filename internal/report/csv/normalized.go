package csv

import (
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// setNormalized fills a summary row's role and normalized-score columns.
func (row csvRow) setNormalized(r *model.Run, s *ndjson.Summary) {
	if s.Case == r.ReferenceWorkload() {
		row.set("role", ndjson.RoleReferenceWorkload)
	}
	if n := s.Normalized; n != nil {
		row.setFloats(map[string]float64{"normalized": n.Score,
			"normalized_ci_low": n.CI[0], "normalized_ci_high": n.CI[1]})
		row.set("normalized_reference_case", strconv.Itoa(n.ReferenceCase))
	}
}

// longNormalizedRows are the long schema's rows of normalized scores: one
// per measured case, axis "normalized", the score as its mean.
func longNormalizedRows(r *model.Run) []longRow {
	var rows []longRow
	for i := range r.Summaries {
		s := &r.Summaries[i]
		if s.Normalized == nil {
			continue
		}
		row := newLongRow(r, "summary", "normalized", words.RefUnits, "collected", "")
		row.set("case", strconv.Itoa(s.Case))
		row.set("name", r.CaseName(s.Case))
		row.set("n", strconv.Itoa(s.N))
		row.set("missing", "0")
		row.set("method", "mean ratio to case "+strconv.Itoa(s.Normalized.ReferenceCase)+", intervals in quadrature")
		row.setNumbers(map[string]float64{"mean": s.Normalized.Score,
			"mean_ci_low": s.Normalized.CI[0], "mean_ci_high": s.Normalized.CI[1]})
		rows = append(rows, row)
	}
	return rows
}

// markLongRoles sets the role column of the reference workload's rows.
func markLongRoles(r *model.Run, rows []longRow) {
	ref := r.ReferenceWorkload()
	if ref < 0 {
		return
	}
	for _, row := range rows {
		if row[longIndex["kind"]] == "summary" && row[longIndex["case"]] == strconv.Itoa(ref) {
			row.set("role", ndjson.RoleReferenceWorkload)
		}
	}
}
