package csv

import (
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
