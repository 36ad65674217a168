package report

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
	out     sink
	p       painter
	details bool
}

// newConsole is the console format writing text to w.
func newConsole(w *bytes.Buffer, opt Options) *console {
	p := painter(opt.Color)
	return &console{out: &textSink{w: w, p: p}, p: p, details: opt.Details}
}

func writeConsole(w *bytes.Buffer, runs []*model.Run, opt Options) {
	c := newConsole(w, opt)
	for i, r := range runs {
		if i > 0 {
			c.line("")
		}
		c.run(r)
	}
	c.aaCards(runs)
	c.suites(runs)
}

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
		parts = append(parts, c.p.paint(sgrYellow, "⚠ incomplete run: "+why))
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
		return run.Design
	}
	return run.Design + ", " + run.Batching
}

// title opens a card: "-" marks a case, "=" a comparison.
func (c *console) title(mark, name string) { c.out.title(mark, name) }

// row is one labelled line of a card.
func (c *console) row(label, text string) { c.out.row(label, "", text) }

// paintedRow is a card row whose whole text is painted in sgr: a verdict,
// a repair, a warning.
func (c *console) paintedRow(label, sgr, text string) { c.out.row(label, sgr, text) }

func (c *console) warning(text string) { c.paintedRow("warning", sgrYellow, text) }

// table is a table of cells on its own, under the card's title.
func (c *console) table(rows [][]cell, right []bool) { c.out.table("", rows, right) }

func (c *console) line(s string) { c.out.line(s) }
