package csv

import (
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// suiteCSVRows are a suite's rows in the csv schema: one "suite" row with
// the geometric mean, its interval and verdict (n is the member count),
// then a "suite-member" row per member (run_id, contender, name,
// geo_speedup, change_pct, n = its units, design).
func suiteCSVRows(s *ndjson.Suite) []csvRow {
	head := make(csvRow, len(Columns))
	head.set("kind", "suite")
	head.set("name", words.SuiteTitle(s))
	head.set("n", strconv.Itoa(len(s.Members)))
	head.set("verdict", string(s.Verdict))
	head.setFloats(map[string]float64{"geo_speedup": s.GeoSpeedup, "speedup_ci_low": s.SpeedupCI[0], "speedup_ci_high": s.SpeedupCI[1],
		"change_pct": s.ChangePct, "change_ci_low": s.ChangeCI[0], "change_ci_high": s.ChangeCI[1],
		"confidence_pct": s.ConfidencePct, "threshold_pct": s.ThresholdPct})
	head.set("warnings", strings.Join(s.Warnings, " | "))
	rows := []csvRow{head}
	for _, m := range s.Members {
		row := make(csvRow, len(Columns))
		row.set("run_id", m.RunID)
		row.set("kind", "suite-member")
		row.set("contender", strconv.Itoa(m.Contender))
		row.set("name", m.Name)
		row.set("n", strconv.Itoa(m.Pairs))
		row.set("design", string(m.Design))
		row.setFloats(map[string]float64{"geo_speedup": m.Speedup, "change_pct": words.MemberChange(m)})
		rows = append(rows, row)
	}
	return rows
}

// suiteLongRows are a suite's rows in the long schema, on the axis
// "time": a "suite" row with the geometric mean as a change (n members),
// then a "suite-member" row per member.
func suiteLongRows(s *ndjson.Suite) []longRow {
	head := make(longRow, len(LongColumns))
	for col, v := range map[string]string{"kind": "suite", "name": words.SuiteTitle(s), "axis": "time", "unit": "%",
		"status": "collected", "available": "true", "method": "geometric-mean", "n": strconv.Itoa(len(s.Members)),
		"verdict": string(s.Verdict), "warnings": strings.Join(s.Warnings, " | ")} {
		head.set(col, v)
	}
	head.setNumbers(map[string]float64{"change": s.ChangePct, "ci_low": s.ChangeCI[0], "ci_high": s.ChangeCI[1],
		"confidence_pct": s.ConfidencePct})
	rows := []longRow{head}
	for _, m := range s.Members {
		row := make(longRow, len(LongColumns))
		for col, v := range map[string]string{"run_id": m.RunID, "kind": "suite-member", "contender": strconv.Itoa(m.Contender),
			"name": m.Name, "axis": "time", "unit": "%", "status": "collected", "available": "true",
			"method": "geometric-mean", "n": strconv.Itoa(m.Pairs)} {
			row.set(col, v)
		}
		row.setNumbers(map[string]float64{"change": words.MemberChange(m)})
		rows = append(rows, row)
	}
	return rows
}
