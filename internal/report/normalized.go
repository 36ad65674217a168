package report

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// The reference workload (fb-pair --reference) in every format: each
// measured case's normalized score with its interval, and the reference
// workload's case marked as the yardstick they are counted in.

// markdownNormalized is the markdown table's extra column, as header,
// alignment and case cells (in case order); nil without a reference
// workload.
func markdownNormalized(r *model.Run) []string {
	if r.ReferenceWorkload() < 0 {
		return nil
	}
	out := []string{"normalized (" + words.RefUnits + ")", ":--"}
	for i := range r.Run.Cases {
		out = append(out, mdEscape(words.NormalizedCell(r, i)))
	}
	return out
}
