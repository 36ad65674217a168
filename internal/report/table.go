package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// cell is one table entry and the colour it is painted in. A span cell
// runs on unpadded over the columns after it and ends its row: it carries
// a sentence, such as why an axis is unavailable, not a number.
type cell struct {
	text string
	sgr  string
	span bool
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
func manyRows(r *model.Run) [][]cell {
	median := "median/op"
	if r.CPUTimed() {
		median = "cpu time median/op"
	}
	rows := [][]cell{{{text: "case"}, {text: median}, {text: "speedup"},
		{text: words.TableCILabel(r)}, {text: "change"}, {text: "verdict"}, {text: "wins/losses/ties"}}}
	for i := range r.Run.Cases {
		row := []cell{{text: r.CaseName(i)}, {text: "n/a"}}
		if s := r.Summary(i); s != nil {
			row[1].text = model.Dur(s.Median)
		}
		if i == model.Reference {
			rows = append(rows, append(row, cell{}, cell{}, cell{}, cell{text: "reference"}))
			continue
		}
		rows = append(rows, append(row, contenderCells(r, i)...))
	}
	return withNormalizedColumn(r, rows)
}

func contenderCells(r *model.Run, i int) []cell {
	k := r.Against(i)
	if k == nil && i == r.ReferenceWorkload() {
		return []cell{{}, {}, {}, {text: "yardstick"}, {}}
	}
	if k == nil {
		return []cell{{}, {}, {}, {text: "no comparison"}}
	}
	return []cell{
		{text: model.Speedup(words.DecisionSpeedup(k))},
		{text: model.SpeedupRange(k.SpeedupCI)},
		{text: model.Pct(k.ChangePct)},
		{text: words.VerdictShort(k.Verdict), sgr: verdictColor(k.Verdict)},
		{text: winsText(k)},
	}
}

// tableLines lays rows out in columns two spaces apart. right marks the
// right-aligned columns; colour is applied inside the padding.
func tableLines(p painter, rows [][]cell, right []bool) []string {
	widths := columnWidths(rows)
	lines := make([]string, 0, len(rows))
	for _, row := range rows {
		var b strings.Builder
		for j, cl := range row {
			if j > 0 {
				b.WriteString("  ")
			}
			if cl.span {
				b.WriteString(p.paint(cl.sgr, cl.text))
				break
			}
			pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(cl.text))
			if j < len(right) && right[j] {
				b.WriteString(pad + p.paint(cl.sgr, cl.text))
			} else {
				b.WriteString(p.paint(cl.sgr, cl.text) + pad)
			}
		}
		lines = append(lines, b.String())
	}
	return lines
}

func columnWidths(rows [][]cell) []int {
	var widths []int
	for _, row := range rows {
		for j, cl := range row {
			if j == len(widths) {
				widths = append(widths, 0)
			}
			if cl.span {
				continue
			}
			widths[j] = max(widths[j], utf8.RuneCountInString(cl.text))
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
