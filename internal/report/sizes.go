package report

import (
	"bytes"
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// markdownSizes is a line per comparison with a sizes text, naming the
// contender when the run has more than one.
func markdownSizes(w *bytes.Buffer, r *model.Run) {
	for k := range r.Comparisons {
		text := words.Sizes(r.Comparisons[k].Sizes)
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
