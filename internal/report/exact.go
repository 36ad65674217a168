package report

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// An exact result (a deterministic count: a custom axis declared exact,
// or instructions_sim) is printed as its exact difference, every digit,
// with its verdict ("no change", "increased", "decreased", "not
// deterministic") and no interval: there is none.

// markdownExactRow is an exact axis in a Markdown axis table.
func markdownExactRow(a *ndjson.AxisComparison) []string {
	res := a.Result
	return []string{mdEscape(a.Name), mdEscape(model.AxisValue(res.RefMedian, a.Unit)), mdEscape(model.AxisValue(res.ConMedian, a.Unit)),
		mdEscape(words.ExactChange(res, a.Unit) + " exact, no interval"), "**" + mdEscape(res.Verdict) + "**"}
}
