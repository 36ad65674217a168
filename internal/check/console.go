package check

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flybench/flybench/pkg/ndjson"
)

// painter wraps text in an ANSI SGR sequence when colour is on.
type painter bool

func (p painter) paint(sgr, s string) string {
	if !p || s == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

// SGR parameters of the console format.
const (
	sgrRedBold = "1;31"
	sgrGreen   = "32"
	sgrYellow  = "33"
	sgrBold    = "1"
)

// outcomeColor is the colour of an item's or a run's outcome.
func outcomeColor(outcome string) string {
	switch outcome {
	case ndjson.CheckItemFail, ndjson.CheckRegressed:
		return sgrRedBold
	case ndjson.CheckItemPass:
		return sgrGreen
	}
	return sgrYellow
}

// writeConsole writes the rules, a table per run with its outcome and
// reasons, and the headline last.
func writeConsole(w *bytes.Buffer, res Result, all []*Run, ro Render) {
	p := painter(ro.Color)
	fmt.Fprintf(w, "%s\n%s\n", rules(ro.Options), noiseLine(ro))
	for i, r := range all {
		ck := res.Checks[i]
		fmt.Fprintf(w, "\n%s: %s\n", describeRun(r), p.paint(outcomeColor(ck.Outcome), runOutcome(ck)))
		if len(ck.Items) > 0 {
			writeTable(w, ck.Items, p)
		}
		for _, why := range ck.Reasons {
			fmt.Fprintf(w, "  %s %s\n", p.paint(sgrYellow, reasonLabel(ck)), why)
		}
	}
	fmt.Fprintf(w, "\n%s\n", p.paint(outcomeColor(res.Outcome), res.Headline()))
}

// runOutcome is a run's outcome as the console shows it.
func runOutcome(ck ndjson.Check) string {
	s := strings.ToUpper(ck.Outcome)
	if ck.Advisory {
		s += " (advisory)"
	}
	return s
}

// reasonLabel heads a run's reasons: ADVISORY when they make it so.
func reasonLabel(ck ndjson.Check) string {
	if ck.Advisory {
		return "ADVISORY:"
	}
	return "note:"
}

// writeTable writes items as aligned columns, the last one unpadded.
func writeTable(w *bytes.Buffer, items []ndjson.CheckItem, p painter) {
	rows := [][]string{columns}
	for _, it := range items {
		rows = append(rows, row(it))
	}
	width := make([]int, len(columns))
	for _, r := range rows {
		for j, cell := range r {
			width[j] = max(width[j], utf8.RuneCountInString(cell))
		}
	}
	for i, r := range rows {
		for j, cell := range r {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(cell))
			if j == len(r)-1 {
				pad = ""
			}
			if i > 0 && columns[j] == "result" {
				cell = p.paint(outcomeColor(cell), cell)
			}
			w.WriteString("  " + cell + pad)
		}
		w.WriteString("\n")
	}
}
