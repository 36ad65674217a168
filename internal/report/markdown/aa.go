package markdown

import (
	"bytes"
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// markdownAA writes a section per A/A series after the runs.
func markdownAA(w *bytes.Buffer, runs []*model.Run) {
	for _, a := range model.AAs(runs) {
		fmt.Fprintf(w, "\n### %s\n\n", mdEscape(words.AATitle(&a)))
		for _, line := range []string{words.AAFalse(&a), words.AAInterval(&a), words.AASpread(&a), words.AASpreadWarning(&a), words.AAVerdicts(&a), words.AASize(&a)} {
			if line != "" {
				fmt.Fprintf(w, "- %s\n", mdEscape(line))
			}
		}
	}
}
