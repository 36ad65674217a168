package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Process is a comparison card's process-level row: the interval over
// whole process blocks (Student's t below 80 blocks, BCa from there, with
// the Monte-Carlo error of its ends), beside the within-process one of
// the time row, or why there is none.
func Process(p *ndjson.ProcessLevel) string {
	if p.Status != ndjson.ProcessOK {
		return fmt.Sprintf("%s over %d complete blocks: %s", p.Status, p.Runs, p.Reason)
	}
	method, of := "BCa", "medians"
	switch p.Method {
	case ndjson.ProcessBCa:
	case ndjson.ProcessT:
		method, of = "t", "crossover geometric means"
	default:
		method = p.Method + " (BCa's jackknife was degenerate)"
	}
	mc := ""
	if p.MCError != nil {
		mc = fmt.Sprintf(", ends ±%.2f/±%.2f points Monte-Carlo error", p.MCError[0], p.MCError[1])
	}
	return fmt.Sprintf("%s improvement  %s CI %s  %s  (%s over %d process blocks, paired, %d orientation strata%s; %s of the %s)",
		model.Pct(p.ImprovementPct), model.Confidence(p.ConfidencePct), model.PctRange(p.CI), VerdictShort(p.Verdict), method, p.Runs, p.Strata, mc, of, p.Statistic)
}

// ProcessLabel is the card row label of a process-level view.
func ProcessLabel(p *ndjson.ProcessLevel) string {
	switch p.View {
	case ndjson.ProcessThroughput:
		return "process tp"
	case ndjson.ProcessTail:
		return "process p95"
	}
	return "process"
}
