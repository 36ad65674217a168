package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// markdownSuites writes a section per suite after the runs.
func markdownSuites(w *bytes.Buffer, runs []*model.Run) {
	for _, s := range model.Suites(runs) {
		fmt.Fprintf(w, "\n### %s\n\n", mdEscape(words.SuiteTitle(&s)))
		w.WriteString("| benchmark | run | units | speedup | change |\n| :-- | :-- | --: | --: | --: |\n")
		for _, m := range s.Members {
			fmt.Fprintf(w, "| %s | `%s` | %d | %s | %s |\n", mdEscape(m.Name), model.ShortID(m.RunID), m.Pairs, model.Speedup(m.Speedup), model.Pct(words.MemberChange(m)))
		}
		fmt.Fprintf(w, "| **geometric mean** | | | **%s** (%s) | %s (%s) |\n", model.Speedup(s.GeoSpeedup), model.SpeedupRange(s.SpeedupCI), model.Pct(s.ChangePct), model.PctRange(s.ChangeCI))
		fmt.Fprintf(w, "\n**%s** — %s, practical threshold ±%.1f%%.\n", mdEscape(words.SuiteVerdict(s.Verdict)), words.SuiteLevel(&s), s.ThresholdPct)
		for _, warning := range s.Warnings {
			fmt.Fprintf(w, "> ⚠ %s\n", mdEscape(warning))
		}
	}
}

// suiteCSVRows are a suite's rows in the csv schema: one "suite" row with
// the geometric mean, its interval and verdict (n is the member count),
// then a "suite-member" row per member (run_id, contender, name,
// geo_speedup, change_pct, n = its units, design).
func suiteCSVRows(s *ndjson.Suite) []csvRow {
	head := make(csvRow, len(csvColumns))
	head.set("kind", "suite")
	head.set("name", words.SuiteTitle(s))
	head.set("n", strconv.Itoa(len(s.Members)))
	head.set("verdict", s.Verdict)
	head.setFloats(map[string]float64{"geo_speedup": s.GeoSpeedup, "speedup_ci_low": s.SpeedupCI[0], "speedup_ci_high": s.SpeedupCI[1],
		"change_pct": s.ChangePct, "change_ci_low": s.ChangeCI[0], "change_ci_high": s.ChangeCI[1],
		"confidence_pct": s.ConfidencePct, "threshold_pct": s.ThresholdPct})
	head.set("warnings", strings.Join(s.Warnings, " | "))
	rows := []csvRow{head}
	for _, m := range s.Members {
		row := make(csvRow, len(csvColumns))
		row.set("run_id", m.RunID)
		row.set("kind", "suite-member")
		row.set("contender", strconv.Itoa(m.Contender))
		row.set("name", m.Name)
		row.set("n", strconv.Itoa(m.Pairs))
		row.set("design", m.Design)
		row.setFloats(map[string]float64{"geo_speedup": m.Speedup, "change_pct": words.MemberChange(m)})
		rows = append(rows, row)
	}
	return rows
}

// suiteLongRows are a suite's rows in the long schema, on the axis
// "time": a "suite" row with the geometric mean as a change (n members),
// then a "suite-member" row per member.
func suiteLongRows(s *ndjson.Suite) []longRow {
	head := make(longRow, len(longColumns))
	for col, v := range map[string]string{"kind": "suite", "name": words.SuiteTitle(s), "axis": "time", "unit": "%",
		"status": "collected", "available": "true", "method": "geometric-mean", "n": strconv.Itoa(len(s.Members)),
		"verdict": s.Verdict, "warnings": strings.Join(s.Warnings, " | ")} {
		head.set(col, v)
	}
	head.setNumbers(map[string]float64{"change": s.ChangePct, "ci_low": s.ChangeCI[0], "ci_high": s.ChangeCI[1],
		"confidence_pct": s.ConfidencePct})
	rows := []longRow{head}
	for _, m := range s.Members {
		row := make(longRow, len(longColumns))
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
