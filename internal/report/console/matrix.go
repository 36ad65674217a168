package console

import (
	"slices"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisMatrix prints, for three or more cases, one row per axis and one
// column per contender: each axis's change against the reference and its
// verdict. Unavailable cells read "n/a" and the lines beneath say why.
func (c *console) axisMatrix(r *model.Run) {
	order := matrixAxes(r)
	if len(order) == 0 || len(order) == 1 && !axes.Extra(0, order[0]) {
		return
	}
	c.title("=", "axes against "+r.CaseName(model.Reference))
	header := []Cell{{Text: "axis"}}
	right := []bool{false}
	for i := range r.Run.Cases {
		if i != model.Reference {
			header = append(header, Cell{Text: r.CaseName(i)}, Cell{})
			right = append(right, true, false)
		}
	}
	rows := [][]Cell{header}
	for _, name := range order {
		rows = append(rows, matrixRow(r, name))
	}
	c.table(rows, right)
	c.row("legend", "✓ better than "+r.CaseName(model.Reference)+"  ✗ worse  ~ practically equivalent  "+
		"? inconclusive  diag not judged  Δ absolute difference"+exactLegend(r)+"  n/a unavailable")
	label := "n/a"
	for _, note := range matrixNotes(r, order) {
		c.row(label, note)
		label = ""
	}
}

// matrixAxes lists the axes any comparison holds, in the order they first
// appear (wall time first, as fb-analyze writes them).
func matrixAxes(r *model.Run) []string {
	var order []string
	for k := range r.Comparisons {
		for _, a := range r.Comparisons[k].Axes {
			if !slices.Contains(order, a.Name) {
				order = append(order, a.Name)
			}
		}
	}
	return order
}

func matrixRow(r *model.Run, name string) []Cell {
	row := []Cell{{Text: name}}
	for i := range r.Run.Cases {
		if i != model.Reference {
			row = append(row, matrixCells(r.Against(i), name)...)
		}
	}
	return row
}

// matrixCells are a change and its verdict mark: "-12.3%" "✓",
// "Δ+0.0200 faults/op" "?", or "n/a" and nothing.
func matrixCells(k *ndjson.Comparison, name string) []Cell {
	a := comparedAxis(k, name)
	if a == nil || !model.Collected(a) {
		return []Cell{{Text: "n/a"}, {}}
	}
	if words.IsExact(a.Result) {
		return exactMatrixCells(a)
	}
	change := words.AxisChange(a.Result, a.Unit)
	if words.Absolute(a.Result) {
		change = "Δ" + change
	}
	v := a.Result.Verdict
	return []Cell{{Text: change, SGR: axisVerdictColor(v)}, {Text: axisVerdictMark(v), SGR: axisVerdictColor(v)}}
}

// comparedAxis is the axis called name in k, nil when k or the axis is absent.
func comparedAxis(k *ndjson.Comparison, name string) *ndjson.AxisComparison {
	if k == nil {
		return nil
	}
	for i := range k.Axes {
		if k.Axes[i].Name == name {
			return &k.Axes[i]
		}
	}
	return nil
}

// matrixNotes say once why each unavailable cell is unavailable.
func matrixNotes(r *model.Run, order []string) []string {
	var notes []string
	for _, name := range order {
		for i := range r.Run.Cases {
			a := comparedAxis(r.Against(i), name)
			if i == model.Reference || a == nil || model.Collected(a) {
				continue
			}
			note := name + " " + model.UnavailableText(a.Status, a.Reason)
			if !slices.Contains(notes, note) {
				notes = append(notes, note)
			}
		}
	}
	return notes
}
