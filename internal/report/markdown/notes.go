package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// The one-line notes under a run's table: the family, the process level,
// the batch sizes and the throughput view.

// markdownFamily writes the run's family line under its method note.
func markdownFamily(w *bytes.Buffer, r *model.Run) {
	if text := words.Family(r); text != "" {
		fmt.Fprintf(w, "\n_Family: %s_\n", mdEscape(text))
	}
}

// markdownProcess is the process-level line of a run in Markdown.
func markdownProcess(w *bytes.Buffer, r *model.Run) {
	for k := range r.Comparisons {
		if p := r.Comparisons[k].Process; p != nil {
			ref, con := words.Names(r, &r.Comparisons[k])
			fmt.Fprintf(w, "\n_Process level, %s vs %s: %s_\n", mdEscape(con), mdEscape(ref), mdEscape(words.Process(p)))
		}
		for i := range r.Comparisons[k].ProcessViews {
			p := &r.Comparisons[k].ProcessViews[i]
			ref, con := words.Names(r, &r.Comparisons[k])
			fmt.Fprintf(w, "\n_Process level (%s), %s vs %s: %s_\n", p.View, mdEscape(con), mdEscape(ref), mdEscape(words.Process(p)))
		}
	}
}

// markdownSizes is a line per comparison with a sizes text, naming the
// contender when the run has more than one.
func markdownSizes(w *bytes.Buffer, r *model.Run) {
	for k := range r.Comparisons {
		text := words.Sizes(r.Comparisons[k].Sizes, r.Names)
		if text == "" {
			continue
		}
		if len(r.Comparisons) > 1 {
			_, con := words.Names(r, &r.Comparisons[k])
			text = con + ": " + text
		}
		fmt.Fprintf(w, "\n_Batch sizes: %s_\n", mdEscape(text))
	}
}

// markdownThroughput is a run's throughput view in Markdown, one line,
// when a case declares work units.
func markdownThroughput(w *bytes.Buffer, r *model.Run) {
	var parts []string
	for i := range r.Run.Cases {
		if s := r.Summary(i); s != nil && s.Throughput != nil {
			t := s.Throughput
			parts = append(parts, fmt.Sprintf("%s %s (%s .. %s)", mdEscape(r.CaseName(i)), words.Rate(t.UnitsPerSec), words.Rate(t.CI[0]), words.Rate(t.CI[1])))
		}
	}
	for k := range r.Comparisons {
		if t := r.Comparisons[k].Throughput; t != nil {
			ref, con := words.Names(r, &r.Comparisons[k])
			parts = append(parts, fmt.Sprintf("%s vs %s %s improvement (%s), %s", mdEscape(con), mdEscape(ref), model.Pct(t.ImprovementPct), model.PctRange(t.CI), t.Verdict))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "\n_Throughput (work units per second, higher is better): %s_\n", strings.Join(parts, "; "))
	}
}
