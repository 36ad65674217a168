package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// markdownRecording renders a recording: a heading, a table of benchmarks
// with their percentiles, the axes that lack values, and the comparisons,
// marked independent.
func markdownRecording(w *bytes.Buffer, r *model.Recording) {
	fmt.Fprintf(w, "### Recording `%s`\n\n", model.ShortID(r.Record.RunID))
	fmt.Fprintf(w, "%s\n\n", mdEscape(model.JoinNonEmpty([]string{strings.TrimSpace(r.Record.Tool + " " + r.Record.ToolVersion),
		model.Plural(len(r.Record.Benchmarks), "benchmark"), words.Retention(r.Record.Retention), words.Host(r.Record.Host)}, " · ")))
	notes := append([]string{}, r.Warnings()...)
	for _, s := range r.Summaries {
		for _, n := range s.Warnings {
			notes = append(notes, s.Name+": "+n)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(w, "> ⚠ %s\n", mdEscape(n))
	}
	if len(notes) > 0 {
		w.WriteString("\n")
	}
	head := []string{"benchmark", "done", "n", "outcomes (retained)"}
	for _, p := range []float64{50, 90, 95, 99, 99.9} {
		head = append(head, words.Percentile(p))
	}
	rows := [][]string{head, markdownRule(len(head))}
	for i := range r.Summaries {
		rows = append(rows, markdownSpanRow(&r.Summaries[i]))
	}
	for _, row := range rows {
		w.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	markdownSpanAxes(w, r)
	if len(r.Comparisons) > 0 {
		markdownSpanComparisons(w, r.Comparisons)
	}
	fmt.Fprintf(w, "\n_Percentiles of individual spans (sample_semantics individual_span) with %s bootstrap intervals; "+
		"a percentile needs at least 10 spans beyond it._\n", recordingLevel(r))
}

func markdownRule(n int) []string {
	rule := make([]string, n)
	for i := range rule {
		rule[i] = "---"
	}
	return rule
}

// recordingLevel is the confidence of the recording's intervals.
func recordingLevel(r *model.Recording) string {
	if len(r.Summaries) > 0 && r.Summaries[0].ConfidencePct > 0 {
		return model.Confidence(r.Summaries[0].ConfidencePct)
	}
	return "unstated"
}

func markdownSpanRow(s *ndjson.SpanSummary) []string {
	done := "n/a"
	if s.Tally != nil {
		done = fmt.Sprint(s.Tally.Observed)
	}
	row := []string{mdEscape(s.Name), done, fmt.Sprint(s.N), words.Outcomes(s.RetainedOutcomes)}
	if s.Wall == nil {
		for range 5 {
			row = append(row, "unavailable")
		}
		return row
	}
	for _, p := range s.Wall.Percentiles {
		if p.CI == nil {
			row = append(row, "_"+p.Status+"_")
			continue
		}
		row = append(row, fmt.Sprintf("%s (%s)", model.Dur(p.Value), model.DurRange(p.CI[0], p.CI[1])))
	}
	return row
}

// markdownSpanAxes lists each benchmark's axes besides wall time.
func markdownSpanAxes(w *bytes.Buffer, r *model.Recording) {
	var lines []string
	for _, s := range r.Summaries {
		for _, a := range s.Axes {
			if a.Name != "wall" {
				lines = append(lines, fmt.Sprintf("- %s · %s: %s", mdEscape(s.Name), mdEscape(a.Name), mdEscape(words.SpanAxis(a))))
			}
		}
	}
	if len(lines) > 0 {
		w.WriteString("\n" + strings.Join(lines, "\n") + "\n")
	}
}

func markdownSpanComparisons(w *bytes.Buffer, ks []ndjson.SpanComparison) {
	k0 := ks[0]
	fmt.Fprintf(w, "\n**`%s` vs `%s`** (comparison_design independent: each recording resampled on its own, threshold ±%s)\n\n",
		model.ShortID(k0.ReferenceRun), model.ShortID(k0.ContenderRun), model.Confidence(k0.ThresholdPct))
	w.WriteString("| benchmark | percentile | change | interval | verdict |\n| --- | --- | --- | --- | --- |\n")
	for _, k := range ks {
		for _, ch := range k.Changes {
			change, ci := "unavailable", ""
			if ch.ChangePct != nil && ch.CI != nil {
				change, ci = model.Pct(*ch.ChangePct), model.PctRange(*ch.CI)
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", mdEscape(k.Name), words.Percentile(ch.P), change, ci, ch.Verdict)
		}
	}
	for _, k := range ks {
		for _, n := range k.Warnings {
			fmt.Fprintf(w, "\n> ⚠ %s\n", mdEscape(n))
		}
	}
}
