package console

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// normalizedRow is a case card's line about the reference workload.
func (c *console) normalizedRow(r *model.Run, s *ndjson.Summary) {
	ref := r.ReferenceWorkload()
	switch {
	case ref < 0:
	case s.Case == ref:
		c.row("normalized", words.Yardstick+": the other cases' mean times are divided by this case's mean")
	case s.Normalized != nil:
		c.row("normalized", fmt.Sprintf("%s  (mean / mean of %s; %s with both intervals in quadrature)",
			words.Score(s.Normalized), r.CaseName(ref), r.CILabel()))
	}
}

// withNormalizedColumn adds a "normalized" column to a table of cases
// (a header row, then one row per case in order) when the run has a
// reference workload.
func withNormalizedColumn(r *model.Run, rows [][]Cell) [][]Cell {
	if r.ReferenceWorkload() < 0 || len(rows) == 0 {
		return rows
	}
	rows[0] = append(rows[0], Cell{Text: "normalized"})
	for i := 1; i < len(rows); i++ {
		rows[i] = append(rows[i], Cell{Text: words.NormalizedCell(r, i-1)})
	}
	return rows
}
