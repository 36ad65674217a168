// Package console is fb-report's default format: for each run a header
// line and result cards (a case's latency, spread and serial correlation
// as prominently as its median; a comparison's change, interval and
// verdict; a table against the reference for three or more cases), the
// baseline, the family and the host; then the A/A series, suites and
// recordings. Its cards go to a Sink: text for a terminal, in ANSI colour
// when asked, or the tables of the HTML report.
package console

import (
	"bytes"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// cardWidth is the width of a card's title rule.
const cardWidth = 65

// console renders the human format: a header line per run, then result
// cards, a comparison card or a table against the reference. It hands
// its cards to a sink: text for the console, tables for the HTML report.
type console struct {
	out     Sink
	p       painter
	details bool
}

// newConsole is the console format writing text to w, in colour when
// color is set.
func newConsole(w *bytes.Buffer, color, details bool) *console {
	p := painter(color)
	return &console{out: &textSink{w: w, p: p}, p: p, details: details}
}

// Write writes a stream as text: each run's header and cards, the
// A/A series and suites after the runs, then each recording. color adds
// ANSI colours; details adds, for runs of three or more cases, every
// contender's card and comparison card after the table.
func Write(w *bytes.Buffer, s *model.Stream, color, details bool) {
	c := newConsole(w, color, details)
	for i, r := range s.Runs {
		if i > 0 {
			c.line("")
		}
		c.run(r)
	}
	c.aaCards(s.Runs)
	c.suites(s.Runs)
	for i, rec := range s.Recordings {
		if i > 0 || len(s.Runs) > 0 {
			c.line("")
		}
		c.recording(rec)
	}
}

// RunCards renders a run's cards into out: its cases and comparisons,
// the baseline, the family and the environment, every card of a run of
// three or more cases when details is set.
func RunCards(out Sink, r *model.Run, details bool) { (&console{out: out, details: details}).cards(r) }

// RecordingCards renders a recording's cards into out: one per
// benchmark, then its comparisons.
func RecordingCards(out Sink, rec *model.Recording) { (&console{out: out}).spanCards(rec) }

// SuiteCards renders a card per suite of the runs into out.
func SuiteCards(out Sink, runs []*model.Run) { (&console{out: out}).suites(runs) }

// AACards renders a card per A/A series of the runs into out.
func AACards(out Sink, runs []*model.Run) { (&console{out: out}).aaCards(runs) }

func (c *console) run(r *model.Run) {
	c.line(c.header(r))
	for _, w := range r.Warnings() {
		c.warning(w)
	}
	c.cards(r)
}

// cards prints a run's cards: its cases and comparisons, the baseline,
// the family and the environment.
func (c *console) cards(r *model.Run) {
	switch len(r.Run.Cases) {
	case 1:
		c.card(r, model.Reference)
	case 2:
		c.pair(r)
	default:
		c.many(r)
	}
	c.baseline(r)
	c.family(r)
	c.environment(r)
}

// header is the run's one-line identity: tool, schedule, cases, id, host,
// and a warning when the run did not complete.
func (c *console) header(r *model.Run) string {
	run := r.Run
	parts := []string{
		strings.TrimSpace(run.Tool + " " + run.ToolVersion),
		words.Source(run),
		headerSchedule(run),
		model.Plural(len(run.Cases), "case"),
		timedBy(run.Timer),
		"run " + model.ShortID(run.RunID) + r.RepeatNote(),
		words.Host(run.Host),
	}
	if why := r.Incomplete(); why != "" {
		parts = append(parts, c.p.paint(SGRYellow, "⚠ incomplete run: "+why))
	}
	return model.JoinNonEmpty(parts, " · ")
}

// timedBy is "timed by CPU time" for a CPU-timed run, else empty: the
// header says up front that times per operation are not elapsed time.
func timedBy(t *ndjson.Timer) string {
	if t.KindOf() == ndjson.TimerCPU {
		return "timed by CPU time"
	}
	return ""
}

func headerSchedule(run ndjson.Run) string {
	if run.Design == ndjson.DesignSingle || run.Batching == "" {
		return string(run.Design)
	}
	return string(run.Design) + ", " + run.Batching
}

// title opens a card: "-" marks a case, "=" a comparison.
func (c *console) title(mark, name string) { c.out.Title(mark, name) }

// row is one labelled line of a card.
func (c *console) row(label, text string) { c.out.Row(label, "", text) }

// paintedRow is a card row whose whole text is painted in sgr: a verdict,
// a repair, a warning.
func (c *console) paintedRow(label, sgr, text string) { c.out.Row(label, sgr, text) }

func (c *console) warning(text string) { c.paintedRow("warning", SGRYellow, text) }

// table is a table of cells on its own, under the card's title.
func (c *console) table(rows [][]Cell, right []bool) { c.out.Table("", rows, right) }

func (c *console) line(s string) { c.out.Line(s) }
