// Package markdown is fb-report --format markdown: a pull-request comment
// with, per run, a heading, a table of cases against the reference, the
// axes, the baseline and one-line notes on the method, the batch sizes,
// the family, the stopping rule and the host; then the A/A series, the
// suites and the recordings. Text from the stream is escaped so it cannot
// break out of a table cell or start markup.
package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Write renders a stream as a pull-request comment.
func Write(w *bytes.Buffer, s *model.Stream) {
	for i, r := range s.Runs {
		if i > 0 {
			w.WriteString("\n")
		}
		markdownRun(w, r)
	}
	markdownAA(w, s.Runs)
	markdownSuites(w, s.Runs)
	for i, r := range s.Recordings {
		if i > 0 || len(s.Runs) > 0 {
			w.WriteString("\n")
		}
		markdownRecording(w, r)
	}
}

func markdownRun(w *bytes.Buffer, r *model.Run) {
	fmt.Fprintf(w, "### %s\n\n", mdEscape(words.Title(r)))
	fmt.Fprintf(w, "Run `%s`%s · %s · %s\n\n", model.ShortID(r.Run.RunID), r.RepeatNote(),
		mdEscape(model.JoinNonEmpty([]string{strings.TrimSpace(r.Run.Tool + " " + r.Run.ToolVersion), words.Source(r.Run)}, " · ")),
		mdEscape(words.Host(r.Run.Host)))
	notes := words.ProminentWarnings(r)
	for _, n := range notes {
		fmt.Fprintf(w, "> ⚠ %s\n", mdEscape(n))
	}
	if len(notes) > 0 {
		w.WriteString("\n")
	}
	for _, row := range markdownRows(r) {
		w.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	markdownAxes(w, r)
	markdownBaseline(w, r)
	markdownThroughput(w, r)
	markdownProcess(w, r)
	fmt.Fprintf(w, "\n_%s_\n", methodNote(r))
	markdownSizes(w, r)
	markdownFamily(w, r)
	if text := words.Stopping(r, words.StoppingLevel(r)); text != "" {
		fmt.Fprintf(w, "\n_Stopping: %s_\n", mdEscape(text))
	}
	if r.Environment != nil {
		fmt.Fprintf(w, "\n_Host: %s_\n", mdEscape(words.HostNote(r)))
	}
}

// markdownRows is the table, header and alignment rows included.
func markdownRows(r *model.Run) [][]string {
	compared := len(r.Run.Cases) > 1
	header := []string{"case", "median", "p95", "CV"}
	if r.CPUTimed() {
		header[1], header[2] = "median CPU time", "p95 CPU time"
	}
	align := []string{":--", "--:", "--:", "--:"}
	if compared {
		ref := mdEscape(r.CaseName(model.Reference))
		header = append(header, "speedup vs "+ref, "change vs "+ref, "verdict")
		align = append(align, ":--", ":--", ":--")
	}
	rows := [][]string{header, align}
	for i := range r.Run.Cases {
		row := append([]string{mdEscape(r.CaseName(i))}, markdownStats(r.Summary(i))...)
		if compared {
			row = append(row, markdownVersus(r, i)...)
		}
		rows = append(rows, row)
	}
	for i, v := range markdownNormalized(r) {
		rows[i] = append(rows[i], v)
	}
	return rows
}

func markdownStats(s *ndjson.Summary) []string {
	if s == nil {
		return []string{"n/a", "n/a", "n/a"}
	}
	return []string{model.Dur(s.Median), model.Dur(s.P95), fmt.Sprintf("%.2f%%", s.CVPct)}
}

func markdownVersus(r *model.Run, i int) []string {
	if i == model.Reference {
		return []string{"reference", "", ""}
	}
	k := r.Against(i)
	if k == nil && i == r.ReferenceWorkload() {
		return []string{"", "", "yardstick"}
	}
	if k == nil {
		return []string{"", "", "no comparison"}
	}
	return []string{
		fmt.Sprintf("%s (%s)", model.Speedup(words.DecisionSpeedup(k)), model.SpeedupRange(k.SpeedupCI)),
		fmt.Sprintf("%s (%s)", model.Pct(k.ChangePct), model.PctRange(k.ChangeCI)),
		"**" + mdEscape(words.Verdict(r, k)) + "**",
	}
}

// methodNote is the method line, escaped for Markdown.
func methodNote(r *model.Run) string { return mdEscape(words.Method(r)) }

// mdEscape keeps text from breaking out of a table cell or starting markup.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "*", `\*`, "_", `\_`, "`", "\\`").Replace(s)
}

// markdownNormalized is the markdown table's extra column, as header,
// alignment and case cells (in case order); nil without a reference
// workload.
func markdownNormalized(r *model.Run) []string {
	if r.ReferenceWorkload() < 0 {
		return nil
	}
	out := []string{"normalized (" + words.RefUnits + ")", ":--"}
	for i := range r.Run.Cases {
		out = append(out, mdEscape(words.NormalizedCell(r, i)))
	}
	return out
}
