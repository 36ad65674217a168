package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// setThroughput fills a summary row's throughput columns.
func (row csvRow) setThroughput(s *ndjson.Summary) {
	if t := s.Throughput; t != nil {
		row.setFloats(map[string]float64{"work_units": t.WorkUnits, "units_per_sec": t.UnitsPerSec,
			"units_per_sec_ci_low": t.CI[0], "units_per_sec_ci_high": t.CI[1]})
	}
}

// setThroughputChange fills a comparison row's throughput columns.
func (row csvRow) setThroughputChange(k *ndjson.Comparison) {
	if t := k.Throughput; t != nil {
		row.setFloats(map[string]float64{"throughput_improvement_pct": t.ImprovementPct,
			"throughput_ci_low": t.CI[0], "throughput_ci_high": t.CI[1]})
		row.set("throughput_verdict", t.Verdict)
	}
}

// markdownThroughput is a run's throughput view in Markdown, one line,
// when a case declares work units.
func markdownThroughput(w *bytes.Buffer, r *model.Run) {
	var parts []string
	for i := range r.Run.Cases {
		if s := r.Summary(i); s != nil && s.Throughput != nil {
			t := s.Throughput
			parts = append(parts, fmt.Sprintf("%s %s (%s .. %s)", mdEscape(r.CaseName(i)), words.Rate(t.UnitsPerSec), words.Rate(t.CI[0]), words.Rate(t.CI[1])))
		}
	}
	for k := range r.Comparisons {
		if t := r.Comparisons[k].Throughput; t != nil {
			ref, con := words.Names(r, &r.Comparisons[k])
			parts = append(parts, fmt.Sprintf("%s vs %s %s improvement (%s), %s", mdEscape(con), mdEscape(ref), model.Pct(t.ImprovementPct), model.PctRange(t.CI), t.Verdict))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "\n_Throughput (work units per second, higher is better): %s_\n", strings.Join(parts, "; "))
	}
}
