package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// baselineTitle names the baseline a run was compared with.
func baselineTitle(b *ndjson.Baseline) string {
	what := "times"
	if b.Normalized {
		what = "reference-normalized scores"
	}
	src := ""
	if b.Source != "" {
		src = ", from " + b.Source
	}
	return fmt.Sprintf("against baseline %s (run %s%s, %s; design independent, %s)", b.File, model.ShortID(b.RunID), src, startedText(b.Started), what)
}

// startedText is an RFC 3339 time to the minute, or the text as it is.
func startedText(s string) string {
	if len(s) >= 16 && s[10] == 'T' {
		return s[:10] + " " + s[11:16]
	}
	return s
}

// allowedText lists the fingerprint fields allowed to differ.
func allowedText(b *ndjson.Baseline) string {
	parts := make([]string, len(b.Allowed))
	for i, m := range b.Allowed {
		parts[i] = fmt.Sprintf("%s %q → %q", m.Field, m.Baseline, m.Current)
	}
	return strings.Join(parts, ", ")
}

// baselineValue is a baseline comparison's side in the table: the median
// time per operation, or the median score when normalized.
func baselineValue(k *ndjson.Comparison, v float64) string {
	if k.Normalized {
		return fmt.Sprintf("%.4g", v)
	}
	return model.Dur(v)
}

// baselineMedians are the two sides' medians from the wall-time axis, when
// the comparison carries axes.
func baselineMedians(k *ndjson.Comparison) (ref, con string) {
	for _, a := range k.Axes {
		if a.Name == "wall" && a.Result != nil {
			return baselineValue(k, a.Result.RefMedian), baselineValue(k, a.Result.ConMedian)
		}
	}
	return "", ""
}

// baseline prints the comparisons with the baseline run as one table.
func (c *console) baseline(r *model.Run) {
	if r.Analysis == nil || r.Analysis.Baseline == nil {
		return
	}
	b := r.Analysis.Baseline
	c.title("=", baselineTitle(b))
	if len(b.Allowed) > 0 {
		c.paintedRow("allowed", sgrYellow, "fingerprint differs: "+allowedText(b))
	}
	if len(r.Baseline) == 0 {
		c.row("compared", "no case of this run is in the baseline")
		return
	}
	rows := [][]cell{{{text: "case"}, {text: "baseline"}, {text: "now"}, {text: "change"}, {text: r.CILabel()}, {text: "verdict"}}}
	for i := range r.Baseline {
		k := &r.Baseline[i]
		ref, con := baselineMedians(k)
		rows = append(rows, []cell{{text: k.ContenderName}, {text: ref}, {text: con}, {text: model.Pct(k.ChangePct)},
			{text: model.PctRange(k.ChangeCI)}, {text: verdictShort(k.Verdict), sgr: verdictColor(k.Verdict)}})
	}
	c.table(rows, []bool{false, true, true, true, true, false})
}

// markdownBaseline is the baseline table of a run in Markdown.
func markdownBaseline(w *bytes.Buffer, r *model.Run) {
	if r.Analysis == nil || r.Analysis.Baseline == nil {
		return
	}
	b := r.Analysis.Baseline
	fmt.Fprintf(w, "\n**%s**\n\n", mdEscape(strings.ToUpper(baselineTitle(b)[:1])+baselineTitle(b)[1:]))
	if len(b.Allowed) > 0 {
		fmt.Fprintf(w, "> ⚠ fingerprint differs (allowed): %s\n\n", mdEscape(allowedText(b)))
	}
	if len(r.Baseline) == 0 {
		w.WriteString("No case of this run is in the baseline.\n")
		return
	}
	w.WriteString("| case | baseline | now | change | interval | verdict |\n| :-- | --: | --: | --: | :-- | :-- |\n")
	for i := range r.Baseline {
		k := &r.Baseline[i]
		ref, con := baselineMedians(k)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", mdEscape(k.ContenderName), ref, con, model.Pct(k.ChangePct),
			model.PctRange(k.ChangeCI), verdictShort(k.Verdict))
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
