package console

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Cell is one table entry and the colour it is painted in. A span cell
// runs on unpadded over the columns after it and ends its row: it carries
// a sentence, such as why an axis is unavailable, not a number.
type Cell struct {
	Text string
	SGR  string
	Span bool
}

// many prints a run of three or more cases: the reference's card, then one
// table row per contender against it, then the details when asked.
func (c *console) many(r *model.Run) {
	c.card(r, model.Reference)
	c.title("=", "against "+r.CaseName(model.Reference))
	c.table(manyRows(r), []bool{false, true, true, false, true, false, false})
	for i := range r.Run.Cases {
		if i == model.Reference {
			continue
		}
		k := r.Against(i)
		switch {
		case c.details:
			c.card(r, i)
			if k != nil {
				c.comparison(r, k)
			}
		case k != nil:
			for _, w := range k.Warnings {
				c.warning(r.CaseName(i) + ": " + w)
			}
		}
	}
	if !c.details {
		c.axisMatrix(r)
	}
}

// manyRows is the table against the reference: a header, the reference,
// then each contender with its speedup, interval, change and verdict.
func manyRows(r *model.Run) [][]Cell {
	median := "median/op"
	if r.CPUTimed() {
		median = "cpu time median/op"
	}
	rows := [][]Cell{{{Text: "case"}, {Text: median}, {Text: "speedup"},
		{Text: words.TableCILabel(r)}, {Text: "change"}, {Text: "verdict"}, {Text: "wins/losses/ties"}}}
	for i := range r.Run.Cases {
		row := []Cell{{Text: r.CaseName(i)}, {Text: "n/a"}}
		if s := r.Summary(i); s != nil {
			row[1].Text = model.Dur(s.Median)
		}
		if i == model.Reference {
			rows = append(rows, append(row, Cell{}, Cell{}, Cell{}, Cell{Text: "reference"}))
			continue
		}
		rows = append(rows, append(row, contenderCells(r, i)...))
	}
	return withNormalizedColumn(r, rows)
}

func contenderCells(r *model.Run, i int) []Cell {
	k := r.Against(i)
	if k == nil && i == r.ReferenceWorkload() {
		return []Cell{{}, {}, {}, {Text: "yardstick"}, {}}
	}
	if k == nil {
		return []Cell{{}, {}, {}, {Text: "no comparison"}}
	}
	return []Cell{
		{Text: model.Speedup(words.DecisionSpeedup(k))},
		{Text: model.SpeedupRange(k.SpeedupCI)},
		{Text: model.Pct(k.ChangePct)},
		{Text: words.VerdictShort(k.Verdict), SGR: verdictColor(string(k.Verdict))},
		{Text: winsText(k)},
	}
}

// tableLines lays rows out in columns two spaces apart. right marks the
// right-aligned columns; colour is applied inside the padding.
func tableLines(p painter, rows [][]Cell, right []bool) []string {
	widths := columnWidths(rows)
	lines := make([]string, 0, len(rows))
	for _, row := range rows {
		var b strings.Builder
		for j, cl := range row {
			if j > 0 {
				b.WriteString("  ")
			}
			if cl.Span {
				b.WriteString(p.paint(cl.SGR, cl.Text))
				break
			}
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cl.Text))
			if j < len(right) && right[j] {
				b.WriteString(pad + p.paint(cl.SGR, cl.Text))
			} else {
				b.WriteString(p.paint(cl.SGR, cl.Text) + pad)
			}
		}
		lines = append(lines, b.String())
	}
	return lines
}

func columnWidths(rows [][]Cell) []int {
	var widths []int
	for _, row := range rows {
		for j, cl := range row {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			if cl.Span {
				continue
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(cl.Text))
		}
	}
	return widths
}

// winsText is "wins/losses/ties", or "n/a" for sequential blocks, which
// have no pairs.
func winsText(k *ndjson.Comparison) string {
	if k.Design == ndjson.DesignSequential {
		return "n/a"
	}
	return fmt.Sprintf("%d/%d/%d", k.ContenderWins, k.ReferenceWins, k.Ties)
}
