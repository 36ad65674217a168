package report

import (
	"bytes"
	"fmt"
	"strings"

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
		c.paintedRow("allowed", sgrYellow, "fingerprint differs: "+words.Allowed(b))
	}
	if len(r.Baseline) == 0 {
		c.row("compared", "no case of this run is in the baseline")
		return
	}
	rows := [][]cell{{{text: "case"}, {text: "baseline"}, {text: "now"}, {text: "change"}, {text: r.CILabel()}, {text: "verdict"}}}
	for i := range r.Baseline {
		k := &r.Baseline[i]
		ref, con := words.BaselineMedians(k)
		rows = append(rows, []cell{{text: k.ContenderName}, {text: ref}, {text: con}, {text: model.Pct(k.ChangePct)},
			{text: model.PctRange(k.ChangeCI)}, {text: words.VerdictShort(k.Verdict), sgr: verdictColor(k.Verdict)}})
	}
	c.table(rows, []bool{false, true, true, true, true, false})
}

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

// baselineCSVRows are the baseline comparisons as csv rows of kind
// "baseline": the reference columns name the baseline's case.
func baselineCSVRows(r *model.Run) []csvRow {
	var rows []csvRow
	for i := range r.Baseline {
		k := &r.Baseline[i]
		row := comparisonRow(r, k)
		row.set("kind", "baseline")
		row.set("name", k.ReferenceName)
		b := r.Analysis.Baseline
		row.set("baseline_run_id", b.RunID)
		row.set("baseline_file", b.File)
		row.set("baseline_normalized", fmt.Sprint(k.Normalized))
		fields := make([]string, len(b.Allowed))
		for j, m := range b.Allowed {
			fields[j] = m.Field
		}
		row.set("allowed_mismatches", strings.Join(fields, " "))
		rows = append(rows, row)
	}
	return rows
}
