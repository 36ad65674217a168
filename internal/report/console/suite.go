package console

import (
	"fmt"
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// suites prints a card per suite after the runs: every member with its
// speedup, then the geometric mean with its interval and verdict.
func (c *console) suites(runs []*model.Run) {
	for _, s := range model.Suites(runs) {
		c.title("=", words.SuiteTitle(&s))
		rows := [][]Cell{{{Text: "benchmark"}, {Text: "run"}, {Text: "units"}, {Text: "speedup"}, {Text: "change"}}}
		for _, m := range s.Members {
			rows = append(rows, []Cell{{Text: m.Name}, {Text: model.ShortID(m.RunID)}, {Text: strconv.Itoa(m.Pairs)},
				{Text: model.Speedup(m.Speedup)}, {Text: model.Pct(words.MemberChange(m))}})
		}
		c.table(rows, []bool{false, false, true, true, true})
		c.row("speedup", fmt.Sprintf("%s geometric mean  %s %s", c.p.paint(SGRBold, model.Speedup(s.GeoSpeedup)), words.SuiteLevel(&s), model.SpeedupRange(s.SpeedupCI)))
		c.row("time", fmt.Sprintf("%s  %s %s  threshold ±%.1f%%", model.Pct(s.ChangePct), words.SuiteLevel(&s), model.PctRange(s.ChangeCI), s.ThresholdPct))
		c.paintedRow("verdict", verdictColor(string(s.Verdict)), words.SuiteVerdict(s.Verdict))
		for _, w := range s.Warnings {
			c.warning(w)
		}
	}
}
