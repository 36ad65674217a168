package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// writeMarkdown renders a pull-request comment: per run a heading, a table
// of cases against the reference and a one-line note on the method.
func writeMarkdown(w *bytes.Buffer, runs []*model.Run) {
	for i, r := range runs {
		if i > 0 {
			w.WriteString("\n")
		}
		markdownRun(w, r)
	}
	markdownAA(w, runs)
	markdownSuites(w, runs)
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
