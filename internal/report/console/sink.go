package console

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sink receives what the console format renders: cards of labelled rows,
// tables and free lines. textSink lays them out for a terminal; the HTML
// report's sink keeps them as tables.
type Sink interface {
	// Title opens a card: mark "-" for a case, "=" for a comparison.
	Title(mark, name string)
	// Row is one labelled line of a card, painted in sgr when set.
	Row(label, sgr, text string)
	// Table is a table of cells: inside the card under label, or on its
	// own when label is "".
	Table(label string, rows [][]Cell, right []bool)
	// Line is a line of free text; "" separates blocks.
	Line(s string)
}

// textSink writes the console's text.
type textSink struct {
	w *bytes.Buffer
	p painter
}

// Title opens a card: "-- old -----" for a case, "== old vs new ===" for a comparison.
func (t *textSink) Title(mark, name string) {
	head := mark + mark + " " + name + " "
	rule := strings.Repeat(mark, max(cardWidth-utf8.RuneCountInString(head), 2))
	t.Line("")
	t.Line(t.p.paint(SGRBold, head+rule))
}

// Row writes a labelled line of a card: "   label      | text".
func (t *textSink) Row(label, sgr, text string) {
	t.Line(fmt.Sprintf("   %-10s | %s", label, t.p.paint(sgr, text)))
}

// Table prints rows in aligned columns, indented like card rows, or as
// the rows of a card under label.
func (t *textSink) Table(label string, rows [][]Cell, right []bool) {
	for i, l := range tableLines(t.p, rows, right) {
		switch {
		case label == "":
			t.Line("   " + l)
		case i == 0:
			t.Row(label, "", l)
		default:
			t.Row("", "", l)
		}
	}
}

// Line writes s without trailing spaces.
func (t *textSink) Line(s string) {
	t.w.WriteString(strings.TrimRight(s, " "))
	t.w.WriteByte('\n')
}
