package report

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// processText is a comparison card's process-level row: the BCa
// interval over whole process blocks, beside the within-process one of
// the time row, or why there is none.
func processText(p *ndjson.ProcessLevel) string {
	if p.Status != ndjson.ProcessOK {
		return fmt.Sprintf("%s over %d complete blocks: %s", p.Status, p.Runs, p.Reason)
	}
	method := "BCa"
	if p.Method != "bca" {
		method = p.Method + " (BCa's jackknife was degenerate)"
	}
	return fmt.Sprintf("%s improvement  %s CI %s  %s  (%s over %d process blocks, paired, %d orientation strata; medians of the %s)",
		model.Pct(p.ImprovementPct), model.Confidence(p.ConfidencePct), model.PctRange(p.CI), verdictShort(p.Verdict), method, p.Runs, p.Strata, p.Statistic)
}

// processLabel is the card row label of a process-level view.
func processLabel(p *ndjson.ProcessLevel) string {
	switch p.View {
	case "throughput":
		return "process tp"
	case "tail":
		return "process p95"
	}
	return "process"
}

// markdownProcess is the process-level line of a run in Markdown.
func markdownProcess(w *bytes.Buffer, r *model.Run) {
	for k := range r.Comparisons {
		if p := r.Comparisons[k].Process; p != nil {
			ref, con := names(r, &r.Comparisons[k])
			fmt.Fprintf(w, "\n_Process level, %s vs %s: %s_\n", mdEscape(con), mdEscape(ref), mdEscape(processText(p)))
		}
		for i := range r.Comparisons[k].ProcessViews {
			p := &r.Comparisons[k].ProcessViews[i]
			ref, con := names(r, &r.Comparisons[k])
			fmt.Fprintf(w, "\n_Process level (%s), %s vs %s: %s_\n", p.View, mdEscape(con), mdEscape(ref), mdEscape(processText(p)))
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
