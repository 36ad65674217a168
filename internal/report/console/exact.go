package console

import (
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// exactColor paints a verdict by the axis's direction: an increase of a
// lower-is-better count is red, a decrease green; a count that varies is
// yellow and no change cyan.
func exactColor(a *ndjson.AxisComparison) string {
	up := map[axes.Direction]string{axes.LowerIsBetter: SGRRed, axes.HigherIsBetter: SGRGreen}
	down := map[axes.Direction]string{axes.LowerIsBetter: SGRGreen, axes.HigherIsBetter: SGRRed}
	switch a.Result.Verdict {
	case ndjson.VerdictExactSame:
		return SGRCyan
	case ndjson.VerdictExactVaries:
		return SGRYellow
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
func exactRow(a *ndjson.AxisComparison) []Cell {
	res := a.Result
	sc := model.RowScale(a.Unit, res.RefMedian, res.ConMedian)
	return []Cell{{Text: a.Name}, {Text: sc.Num(res.RefMedian)}, {Text: sc.Num(res.ConMedian)}, {Text: sc.Label},
		{Text: words.ExactChange(res, "") + " (exact)"}, {Text: "no interval"},
		{Text: res.Verdict, SGR: exactColor(a)},
	}
}

// exactMatrixCells are an exact axis's matrix cells: "=0" "=", "+120" "+".
func exactMatrixCells(a *ndjson.AxisComparison) []Cell {
	v := a.Result.Verdict
	return []Cell{{Text: "=" + words.ExactChange(a.Result, ""), SGR: exactColor(a)}, {Text: exactMark(v), SGR: exactColor(a)}}
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
