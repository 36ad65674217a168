package report

import (
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// An exact result (a deterministic count: a custom axis declared exact,
// or instructions_sim) is printed as its exact difference, every digit,
// with its verdict ("no change", "increased", "decreased", "not
// deterministic") and no interval: there is none.

// exactColor paints a verdict by the axis's direction: an increase of a
// lower-is-better count is red, a decrease green; a count that varies is
// yellow and no change cyan.
func exactColor(a *ndjson.AxisComparison) string {
	up := map[axes.Direction]string{axes.LowerIsBetter: sgrRed, axes.HigherIsBetter: sgrGreen}
	down := map[axes.Direction]string{axes.LowerIsBetter: sgrGreen, axes.HigherIsBetter: sgrRed}
	switch a.Result.Verdict {
	case ndjson.VerdictExactSame:
		return sgrCyan
	case ndjson.VerdictExactVaries:
		return sgrYellow
	case ndjson.VerdictExactIncreased:
		return up[axes.Direction(a.Direction)]
	case ndjson.VerdictExactDecreased:
		return down[axes.Direction(a.Direction)]
	}
	return ""
}

// exactMark is the verdict in a matrix cell.
func exactMark(verdict string) string {
	switch verdict {
	case ndjson.VerdictExactSame:
		return "="
	case ndjson.VerdictExactIncreased:
		return "+"
	case ndjson.VerdictExactDecreased:
		return "-"
	case ndjson.VerdictExactVaries:
		return "?"
	}
	return verdict
}

// exactRow is an exact axis in the console's axis table.
func exactRow(a *ndjson.AxisComparison) []cell {
	res := a.Result
	sc := model.RowScale(a.Unit, res.RefMedian, res.ConMedian)
	return []cell{{text: a.Name}, {text: sc.Num(res.RefMedian)}, {text: sc.Num(res.ConMedian)}, {text: sc.Label},
		{text: words.ExactChange(res, "") + " (exact)"}, {text: "no interval"},
		{text: res.Verdict, sgr: exactColor(a)},
	}
}

// exactMatrixCells are an exact axis's matrix cells: "=0" "=", "+120" "+".
func exactMatrixCells(a *ndjson.AxisComparison) []cell {
	v := a.Result.Verdict
	return []cell{{text: "=" + words.ExactChange(a.Result, ""), sgr: exactColor(a)}, {text: exactMark(v), sgr: exactColor(a)}}
}

// markdownExactRow is an exact axis in a Markdown axis table.
func markdownExactRow(a *ndjson.AxisComparison) []string {
	res := a.Result
	return []string{mdEscape(a.Name), mdEscape(model.AxisValue(res.RefMedian, a.Unit)), mdEscape(model.AxisValue(res.ConMedian, a.Unit)),
		mdEscape(words.ExactChange(res, a.Unit) + " exact, no interval"), "**" + mdEscape(res.Verdict) + "**"}
}

// exactLegend explains the matrix's exact cells, when it has any.
func exactLegend(r *model.Run) string {
	for _, k := range r.Comparisons {
		for i := range k.Axes {
			if a := &k.Axes[i]; model.Collected(a) && words.IsExact(a.Result) {
				return "  = exact difference (= no change, + increased, - decreased, ? not deterministic)"
			}
		}
	}
	return ""
}
