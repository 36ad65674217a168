package html

import (
	"strings"

	"github.com/flybench/flybench/internal/report/console"
)

// htmlSink keeps what the console format renders as cards of rows and
// tables, for the HTML report's templates (page.go). A blank line
// closes the open card, so what follows it stands in a card of its own.
type htmlSink struct {
	cards []*htmlCard
	open  *htmlCard
}

// htmlCard is a titled block: a case, a comparison (Comparison), or an
// untitled one for rows that follow a blank line.
type htmlCard struct {
	Comparison bool
	Title      string
	Blocks     []htmlBlock
}

// htmlBlock is a run of labelled rows (Rows), a table on its own
// (Table) or a line of text (Text).
type htmlBlock struct {
	Rows  []htmlItem
	Table *htmlTable
	Text  string
}

// htmlItem is a labelled row: a text, or a table under the label.
type htmlItem struct {
	Label string
	Tone  string
	Text  string
	Table *htmlTable
}

// htmlTable is a table's header row and body.
type htmlTable struct {
	Head []htmlCell
	Rows [][]htmlCell
}

// htmlCell is one entry: Span is the number of columns a sentence runs
// over, 1 for an ordinary cell.
type htmlCell struct {
	Text  string
	Tone  string
	Right bool
	Span  int
}

// Title opens a card; a comparison's ("=") is marked as one.
func (h *htmlSink) Title(mark, name string) {
	h.open = &htmlCard{Comparison: mark == "=", Title: name}
	h.cards = append(h.cards, h.open)
}

// Row adds a labelled row to the open card, its colour as a tone.
func (h *htmlSink) Row(label, sgr, text string) {
	h.addRow(htmlItem{Label: label, Tone: tone(sgr), Text: text})
}

// Table adds a table: under label as a row of the card, or on its own.
func (h *htmlSink) Table(label string, rows [][]console.Cell, right []bool) {
	if len(rows) == 0 {
		return
	}
	t := &htmlTable{Head: htmlCells(rows[0], right, len(rows[0]))}
	for _, row := range rows[1:] {
		t.Rows = append(t.Rows, htmlCells(row, right, len(rows[0])))
	}
	if label == "" {
		h.add(htmlBlock{Table: t})
		return
	}
	h.addRow(htmlItem{Label: label, Table: t})
}

// Line adds a line of text; a blank one closes the open card.
func (h *htmlSink) Line(s string) {
	if s = strings.TrimSpace(s); s == "" {
		h.open = nil
		return
	}
	h.add(htmlBlock{Text: s})
}

// add puts a block in the open card, opening an untitled one if need be.
func (h *htmlSink) add(b htmlBlock) {
	if h.open == nil {
		h.Title("", "")
	}
	h.open.Blocks = append(h.open.Blocks, b)
}

// addRow puts a row in the open card's last run of rows.
func (h *htmlSink) addRow(it htmlItem) {
	if h.open != nil {
		if n := len(h.open.Blocks); n > 0 && h.open.Blocks[n-1].Rows != nil {
			h.open.Blocks[n-1].Rows = append(h.open.Blocks[n-1].Rows, it)
			return
		}
	}
	h.add(htmlBlock{Rows: []htmlItem{it}})
}

// htmlCells converts a console row of a table width columns wide; a span
// cell takes the columns left.
func htmlCells(row []console.Cell, right []bool, width int) []htmlCell {
	out := make([]htmlCell, 0, len(row))
	for j, cl := range row {
		c := htmlCell{Text: cl.Text, Tone: tone(cl.SGR), Right: j < len(right) && right[j], Span: 1}
		if cl.Span {
			c.Span, c.Right = max(width-j, 1), false
			out = append(out, c)
			break
		}
		out = append(out, c)
	}
	return out
}

// tone is the CSS class of a console colour: the verdict colours become
// the Okabe–Ito palette of the page, always beside their words.
func tone(sgr string) string {
	switch sgr {
	case console.SGRGreen:
		return "better"
	case console.SGRRed:
		return "worse"
	case console.SGRCyan:
		return "same"
	case console.SGRYellow:
		return "warn"
	}
	return ""
}
