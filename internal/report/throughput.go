package report

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// rate is work units per second with a metric prefix: "1.234 M units/s".
func rate(v float64) string {
	for _, p := range []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.f {
			return fmt.Sprintf("%s%s units/s", model.Sig4(v/p.f), p.s)
		}
	}
	return model.Sig4(v) + " units/s"
}

// throughputText is a card's throughput row.
func throughputText(t *ndjson.Throughput) string {
	return fmt.Sprintf("%s  95%% CI %s .. %s  (%s work units per operation; higher is better)",
		rate(t.UnitsPerSec), rate(t.CI[0]), rate(t.CI[1]), model.Plain(t.WorkUnits))
}

// throughputChangeText is a comparison card's throughput row.
func throughputChangeText(t *ndjson.ThroughputChange, ci string) string {
	return fmt.Sprintf("%s improvement  %s %s  %s", model.Pct(t.ImprovementPct), ci, model.PctRange(t.CI), t.Verdict)
}

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
			parts = append(parts, fmt.Sprintf("%s %s (%s .. %s)", mdEscape(r.CaseName(i)), rate(t.UnitsPerSec), rate(t.CI[0]), rate(t.CI[1])))
		}
	}
	for k := range r.Comparisons {
		if t := r.Comparisons[k].Throughput; t != nil {
			ref, con := names(r, &r.Comparisons[k])
			parts = append(parts, fmt.Sprintf("%s vs %s %s improvement (%s), %s", mdEscape(con), mdEscape(ref), model.Pct(t.ImprovementPct), model.PctRange(t.CI), t.Verdict))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "\n_Throughput (work units per second, higher is better): %s_\n", strings.Join(parts, "; "))
	}
}
