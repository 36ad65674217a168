package report

import (
	"bytes"
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// markdownFamily writes the run's family line under its method note.
func markdownFamily(w *bytes.Buffer, r *model.Run) {
	if text := words.Family(r); text != "" {
		fmt.Fprintf(w, "\n_Family: %s_\n", mdEscape(text))
	}
}
