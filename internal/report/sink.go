package report

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// sink receives what the console format renders: cards of labelled rows,
// tables and free lines. textSink lays them out for a terminal; htmlSink
// (htmlsink.go) keeps them as tables for the HTML report.
type sink interface {
	// title opens a card: mark "-" for a case, "=" for a comparison.
	title(mark, name string)
	// row is one labelled line of a card, painted in sgr when set.
	row(label, sgr, text string)
	// table is a table of cells: inside the card under label, or on its
	// own when label is "".
	table(label string, rows [][]cell, right []bool)
	// line is a line of free text; "" separates blocks.
	line(s string)
}

// textSink writes the console's text.
type textSink struct {
	w *bytes.Buffer
	p painter
}

// title opens a card: "-- old -----" for a case, "== old vs new ===" for a comparison.
func (t *textSink) title(mark, name string) {
	head := mark + mark + " " + name + " "
	rule := strings.Repeat(mark, max(cardWidth-utf8.RuneCountInString(head), 2))
	t.line("")
	t.line(t.p.paint(sgrBold, head+rule))
}

func (t *textSink) row(label, sgr, text string) {
	t.line(fmt.Sprintf("   %-10s | %s", label, t.p.paint(sgr, text)))
}

// table prints rows in aligned columns, indented like card rows, or as
// the rows of a card under label.
func (t *textSink) table(label string, rows [][]cell, right []bool) {
	for i, l := range tableLines(t.p, rows, right) {
		switch {
		case label == "":
			t.line("   " + l)
		case i == 0:
			t.row(label, "", l)
		default:
			t.row("", "", l)
		}
	}
}

// line writes s without trailing spaces.
func (t *textSink) line(s string) {
	t.w.WriteString(strings.TrimRight(s, " "))
	t.w.WriteByte('\n')
}
