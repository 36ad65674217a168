package report

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
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

// setProcess fills a comparison row's process-level columns.
func (row csvRow) setProcess(k *ndjson.Comparison) {
	p := k.Process
	if p == nil {
		return
	}
	row.set("process_status", p.Status)
	row.set("process_runs", strconv.Itoa(p.Runs))
	if p.Status == ndjson.ProcessOK {
		row.set("process_method", p.Method)
		row.set("process_verdict", p.Verdict)
		row.setFloats(map[string]float64{"process_improvement_pct": p.ImprovementPct,
			"process_ci_low": p.CI[0], "process_ci_high": p.CI[1], "process_confidence_pct": p.ConfidencePct})
	}
}
