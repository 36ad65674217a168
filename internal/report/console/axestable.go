package console

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisTable prints, under a comparison card, every axis compared on the
// same pairs as wall time: both medians, the change, its interval and its
// own verdict. It is printed only when there is an axis besides wall time.
func (c *console) axisTable(r *model.Run, k *ndjson.Comparison, ci string) {
	if !model.ExtraComparisonAxes(k) {
		return
	}
	ref, con := words.Names(r, k)
	c.row("axes", "change of "+con+" against "+ref+" on the same pairs, in percent or (absolute) in the unit")
	rows := [][]Cell{{{Text: "axis"}, {Text: ref}, {Text: con}, {Text: "unit"},
		{Text: "change"}, {Text: ci}, {Text: "verdict"}}}
	for i := range k.Axes {
		rows = append(rows, axisComparisonRow(r, k, &k.Axes[i]))
	}
	c.table(rows, []bool{false, true, true, false, true, true, false})
}

// axisComparisonRow is one axis of the table: both medians in one unit,
// the change in percent or, marked (absolute), the mean difference in
// that unit, its interval and the verdict. An unavailable axis gets its
// status and reason across the row and no number.
func axisComparisonRow(r *model.Run, k *ndjson.Comparison, a *ndjson.AxisComparison) []Cell {
	name := Cell{Text: a.Name}
	if !model.Collected(a) {
		return []Cell{name, {Text: model.UnavailableText(a.Status, a.Reason), SGR: SGRYellow, Span: true}}
	}
	res := a.Result
	if words.IsExact(res) {
		return exactRow(a)
	}
	sc := model.RowScale(a.Unit, res.RefMedian, res.ConMedian)
	change, ci := model.Pct(res.Change), model.PctRange(res.CI)
	if words.Absolute(res) {
		change, ci = sc.Signed(res.Change)+" (absolute)", sc.Span(res.CI[0], res.CI[1], true)
	}
	return []Cell{name, {Text: sc.Num(res.RefMedian)}, {Text: sc.Num(res.ConMedian)}, {Text: sc.Label},
		{Text: change}, {Text: ci},
		{Text: words.AxisVerdict(r, k, res.Verdict), SGR: axisVerdictColor(res.Verdict)},
	}
}
