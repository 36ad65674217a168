package csv

import (
	"strconv"

	"github.com/flybench/flybench/pkg/ndjson"
)

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
		row.set("process_verdict", string(p.Verdict))
		row.setFloats(map[string]float64{"process_improvement_pct": p.ImprovementPct,
			"process_ci_low": p.CI[0], "process_ci_high": p.CI[1], "process_confidence_pct": p.ConfidencePct})
	}
}
