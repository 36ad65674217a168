package console

import (
	"fmt"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axesBlock prints every axis of a case besides wall time, which the
// latency row already shows: its median and the interval of its mean,
// or, when no sample has a value, its status and the reason. An axis some
// samples lack says how many.
func (c *console) axesBlock(r *model.Run, s *ndjson.Summary) {
	if !model.ExtraSummaryAxes(s) {
		return
	}
	rows := [][]Cell{{{Text: "axis"}, {Text: "median"}, {Text: "unit"}, {Text: r.CILabel() + " of mean"}}}
	for k := range s.Axes {
		if a := &s.Axes[k]; axes.Extra(k, a.Name) {
			rows = append(rows, c.axisSummaryRow(a))
		}
	}
	c.out.Table("axes", rows, []bool{false, true})
}

// axisSummaryRow is "cpu  3.197  ms/op  3.138 .. 3.217": the median and the
// interval of the mean in one unit, or the status when no sample has a value.
func (c *console) axisSummaryRow(a *ndjson.AxisSummary) []Cell {
	name := Cell{Text: a.Name}
	if a.Stats == nil || a.N == 0 {
		return []Cell{name, {Text: model.UnavailableText(a.Status, a.Reason), SGR: SGRYellow, Span: true}}
	}
	st := a.Stats
	sc := model.RowScale(a.Unit, st.Median, st.MeanCI[0], st.MeanCI[1])
	row := []Cell{name, {Text: sc.Num(st.Median)}, {Text: sc.Label}, {Text: sc.Span(st.MeanCI[0], st.MeanCI[1], false)}}
	if !axes.Status(a.Status).Available() {
		row = append(row, Cell{Text: partialText(a), SGR: SGRYellow})
	}
	return row
}

// partialText is the status of an axis only some samples have:
// "partially collected: n 37, missing 3 (reason)".
func partialText(a *ndjson.AxisSummary) string {
	text := fmt.Sprintf("%s: n %d, missing %d", model.StatusText(a.Status), a.N, a.Missing)
	if reason := model.TidyReason(a.Status, a.Reason); reason != "" {
		text += " (" + reason + ")"
	}
	return text
}
