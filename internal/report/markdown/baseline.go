package markdown

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// markdownBaseline is the baseline table of a run in Markdown.
func markdownBaseline(w *bytes.Buffer, r *model.Run) {
	if r.Analysis == nil || r.Analysis.Baseline == nil {
		return
	}
	b := r.Analysis.Baseline
	fmt.Fprintf(w, "\n**%s**\n\n", mdEscape(strings.ToUpper(words.BaselineTitle(b)[:1])+words.BaselineTitle(b)[1:]))
	if len(b.Allowed) > 0 {
		fmt.Fprintf(w, "> ⚠ fingerprint differs (allowed): %s\n\n", mdEscape(words.Allowed(b)))
	}
	if len(r.Baseline) == 0 {
		w.WriteString("No case of this run is in the baseline.\n")
		return
	}
	w.WriteString("| case | baseline | now | change | interval | verdict |\n| :-- | --: | --: | --: | :-- | :-- |\n")
	for i := range r.Baseline {
		k := &r.Baseline[i]
		ref, con := words.BaselineMedians(k)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", mdEscape(k.ContenderName), ref, con, model.Pct(k.ChangePct),
			model.PctRange(k.ChangeCI), words.VerdictShort(k.Verdict))
	}
}
