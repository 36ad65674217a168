package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
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
	fmt.Fprintf(w, "### %s\n\n", mdEscape(markdownTitle(r)))
	fmt.Fprintf(w, "Run `%s`%s · %s · %s\n\n", model.ShortID(r.Run.RunID), r.RepeatNote(),
		mdEscape(model.JoinNonEmpty([]string{strings.TrimSpace(r.Run.Tool + " " + r.Run.ToolVersion), sourceText(r.Run)}, " · ")),
		mdEscape(hostText(r.Run.Host)))
	notes := prominentWarnings(r)
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
	if text := stoppingText(r, stoppingLevel(r)); text != "" {
		fmt.Fprintf(w, "\n_Stopping: %s_\n", mdEscape(text))
	}
	if r.Environment != nil {
		fmt.Fprintf(w, "\n_Host: %s_\n", mdEscape(envNote(r)))
	}
}

// markdownTitle is "old vs new", "base vs 3 contenders" or the single case.
func markdownTitle(r *model.Run) string {
	switch n := len(r.Run.Cases); n {
	case 1:
		return r.CaseName(model.Reference)
	case 2:
		return r.CaseName(model.Reference) + " vs " + r.CaseName(1)
	default:
		return r.CaseName(model.Reference) + " vs " + model.Plural(n-1, "contender")
	}
}

// prominentWarnings gathers what a reviewer must not miss: an incomplete
// run, every warning of the analysis and its comparisons, and a run that
// repaired itself or whose host was not what it asked for.
func prominentWarnings(r *model.Run) []string {
	var notes []string
	if why := r.Incomplete(); why != "" {
		notes = append(notes, "incomplete run: "+why)
	}
	notes = append(notes, r.Warnings()...)
	for k := range r.Comparisons {
		_, con := names(r, &r.Comparisons[k])
		for _, w := range r.Comparisons[k].Warnings {
			notes = append(notes, con+": "+w)
		}
	}
	return append(notes, environmentWarnings(r)...)
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
		fmt.Sprintf("%s (%s)", model.Speedup(decisionSpeedup(k)), model.SpeedupRange(k.SpeedupCI)),
		fmt.Sprintf("%s (%s)", model.Pct(k.ChangePct), model.PctRange(k.ChangeCI)),
		"**" + mdEscape(verdictText(r, k)) + "**",
	}
}

// methodNote is the method line, escaped for Markdown.
func methodNote(r *model.Run) string { return mdEscape(methodText(r)) }

// methodText is the one line that says how the numbers were obtained.
func methodText(r *model.Run) string {
	a := r.Analysis
	sched, _ := scheduleText(r.Run.Design, r.Run.Batching)
	threshold := fmt.Sprintf("; practical threshold ±%.1f%%", a.ThresholdPct)
	if len(r.Run.Cases) == 1 {
		sched, _ = designText(r.Run.Design)
		threshold = ""
	}
	sched = withLayout(sched, r.Run.Config.Layout)
	times := "times per operation"
	if r.CPUTimed() {
		times = "CPU times (user+system) per operation"
	}
	estimate := ""
	if a.Estimator != "" && len(r.Run.Cases) > 1 {
		estimate = fmt.Sprintf("; decision estimate %s (the geometric mean beside it)", a.Estimator)
	}
	return fmt.Sprintf("Method: %s%s; %s, percentiles of batch means; "+
		"%s confidence, %d circular-block bootstrap resamples (block rule %s)%s%s.",
		sched, unitsKept(r), times, model.Confidence(a.ConfidencePct), a.Resamples,
		orNA(a.BlockRule), threshold, estimate)
}

// unitsKept is ", 50 pairs": how many units the run kept, when it says.
func unitsKept(r *model.Run) string {
	if r.End == nil {
		return ""
	}
	unit := unitNoun(r)
	if unit == "sample" && len(r.Run.Cases) > 1 {
		return ", " + model.Plural(r.End.Units, unit) + " per case"
	}
	return ", " + model.Plural(r.End.Units, unit)
}

func orNA(s string) string {
	if s == "" {
		return "n/a"
	}
	return s
}

// mdEscape keeps text from breaking out of a table cell or starting markup.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "*", `\*`, "_", `\_`, "`", "\\`").Replace(s)
}
