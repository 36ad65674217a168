package markdown

import (
	"bytes"
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// markdownSuites writes a section per suite after the runs.
func markdownSuites(w *bytes.Buffer, runs []*model.Run) {
	for _, s := range model.Suites(runs) {
		fmt.Fprintf(w, "\n### %s\n\n", mdEscape(words.SuiteTitle(&s)))
		w.WriteString("| benchmark | run | units | speedup | change |\n| :-- | :-- | --: | --: | --: |\n")
		for _, m := range s.Members {
			fmt.Fprintf(w, "| %s | `%s` | %d | %s | %s |\n", mdEscape(m.Name), model.ShortID(m.RunID), m.Pairs, model.Speedup(m.Speedup), model.Pct(words.MemberChange(m)))
		}
		fmt.Fprintf(w, "| **geometric mean** | | | **%s** (%s) | %s (%s) |\n", model.Speedup(s.GeoSpeedup), model.SpeedupRange(s.SpeedupCI), model.Pct(s.ChangePct), model.PctRange(s.ChangeCI))
		fmt.Fprintf(w, "\n**%s** — %s, practical threshold ±%.1f%%.\n", mdEscape(words.SuiteVerdict(s.Verdict)), words.SuiteLevel(&s), s.ThresholdPct)
		for _, warning := range s.Warnings {
			fmt.Fprintf(w, "> ⚠ %s\n", mdEscape(warning))
		}
	}
}
