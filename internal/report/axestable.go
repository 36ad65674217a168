package report

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisTable prints, under a comparison card, every axis compared on the
// same pairs as wall time: both medians, the change, its interval and its
// own verdict. It is printed only when there is an axis besides wall time.
func (c *console) axisTable(r *Run, k *ndjson.Comparison, ci string) {
	if !extraComparisonAxes(k) {
		return
	}
	ref, con := names(r, k)
	c.row("axes", "change of "+con+" against "+ref+" on the same pairs, in percent or (absolute) in the unit")
	rows := [][]cell{{{text: "axis"}, {text: ref}, {text: con}, {text: "unit"},
		{text: "change"}, {text: ci}, {text: "verdict"}}}
	for i := range k.Axes {
		rows = append(rows, axisComparisonRow(r, k, &k.Axes[i]))
	}
	c.table(rows, []bool{false, true, true, false, true, true, false})
}

// axisComparisonRow is one axis of the table: both medians in one unit,
// the change in percent or, marked (absolute), the mean difference in
// that unit, its interval and the verdict. An unavailable axis gets its
// status and reason across the row and no number.
func axisComparisonRow(r *Run, k *ndjson.Comparison, a *ndjson.AxisComparison) []cell {
	name := cell{text: a.Name}
	if !collected(a) {
		return []cell{name, {text: unavailableText(a.Status, a.Reason), sgr: sgrYellow, span: true}}
	}
	res := a.Result
	if isExact(res) {
		return exactRow(a)
	}
	sc := rowScale(a.Unit, res.RefMedian, res.ConMedian)
	change, ci := pct(res.Change), pctRange(res.CI)
	if absolute(res) {
		change, ci = sc.signed(res.Change)+" (absolute)", sc.span(res.CI[0], res.CI[1], true)
	}
	return []cell{name, {text: sc.num(res.RefMedian)}, {text: sc.num(res.ConMedian)}, {text: sc.label},
		{text: change}, {text: ci},
		{text: axisVerdictText(r, k, res.Verdict), sgr: axisVerdictColor(res.Verdict)},
	}
}
