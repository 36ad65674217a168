package console

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// baseline prints the comparisons with the baseline run as one table.
func (c *console) baseline(r *model.Run) {
	if r.Analysis == nil || r.Analysis.Baseline == nil {
		return
	}
	b := r.Analysis.Baseline
	c.title("=", words.BaselineTitle(b))
	if len(b.Allowed) > 0 {
		c.paintedRow("allowed", SGRYellow, "fingerprint differs: "+words.Allowed(b))
	}
	if len(r.Baseline) == 0 {
		c.row("compared", "no case of this run is in the baseline")
		return
	}
	rows := [][]Cell{{{Text: "case"}, {Text: "baseline"}, {Text: "now"}, {Text: "change"}, {Text: r.CILabel()}, {Text: "verdict"}}}
	for i := range r.Baseline {
		k := &r.Baseline[i]
		ref, con := words.BaselineMedians(k)
		rows = append(rows, []Cell{{Text: k.ContenderName}, {Text: ref}, {Text: con}, {Text: model.Pct(k.ChangePct)},
			{Text: model.PctRange(k.ChangeCI)}, {Text: words.VerdictShort(k.Verdict), SGR: verdictColor(string(k.Verdict))}})
	}
	c.table(rows, []bool{false, true, true, true, true, false})
}
