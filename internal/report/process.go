package report

import (
	"bytes"
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

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
