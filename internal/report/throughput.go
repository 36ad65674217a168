package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

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
