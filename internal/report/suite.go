package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// suiteTitle is "suite: geometric mean of 3 benchmarks".
func suiteTitle(s *ndjson.Suite) string {
	return "suite: geometric mean of " + model.Plural(len(s.Members), "benchmark")
}

// memberChange is a member's speedup as a change of the contender's time.
func memberChange(m ndjson.SuiteMember) float64 { return 100 * (1/m.Speedup - 1) }

// suiteLevel is "95% CI".
func suiteLevel(s *ndjson.Suite) string { return model.Confidence(s.ConfidencePct) + " CI" }

// suites prints a card per suite after the runs: every member with its
// speedup, then the geometric mean with its interval and verdict.
func (c *console) suites(runs []*model.Run) {
	for _, s := range model.Suites(runs) {
		c.title("=", suiteTitle(&s))
		rows := [][]cell{{{text: "benchmark"}, {text: "run"}, {text: "units"}, {text: "speedup"}, {text: "change"}}}
		for _, m := range s.Members {
			rows = append(rows, []cell{{text: m.Name}, {text: model.ShortID(m.RunID)}, {text: strconv.Itoa(m.Pairs)},
				{text: model.Speedup(m.Speedup)}, {text: model.Pct(memberChange(m))}})
		}
		c.table(rows, []bool{false, false, true, true, true})
		c.row("speedup", fmt.Sprintf("%s geometric mean  %s %s", c.p.paint(sgrBold, model.Speedup(s.GeoSpeedup)), suiteLevel(&s), model.SpeedupRange(s.SpeedupCI)))
		c.row("time", fmt.Sprintf("%s  %s %s  threshold ±%.1f%%", model.Pct(s.ChangePct), suiteLevel(&s), model.PctRange(s.ChangeCI), s.ThresholdPct))
		c.paintedRow("verdict", verdictColor(s.Verdict), suiteVerdict(s.Verdict))
		for _, w := range s.Warnings {
			c.warning(w)
		}
	}
}

// suiteVerdict words a suite's verdict for the contenders as a group.
func suiteVerdict(v string) string {
	switch v {
	case ndjson.VerdictContenderFaster:
		return "contenders faster on the geometric mean   (contender faster)"
	case ndjson.VerdictReferenceFaster:
		return "references faster on the geometric mean   (reference faster)"
	}
	return v
}

// markdownSuites writes a section per suite after the runs.
func markdownSuites(w *bytes.Buffer, runs []*model.Run) {
	for _, s := range model.Suites(runs) {
		fmt.Fprintf(w, "\n### %s\n\n", mdEscape(suiteTitle(&s)))
		w.WriteString("| benchmark | run | units | speedup | change |\n| :-- | :-- | --: | --: | --: |\n")
		for _, m := range s.Members {
			fmt.Fprintf(w, "| %s | `%s` | %d | %s | %s |\n", mdEscape(m.Name), model.ShortID(m.RunID), m.Pairs, model.Speedup(m.Speedup), model.Pct(memberChange(m)))
		}
		fmt.Fprintf(w, "| **geometric mean** | | | **%s** (%s) | %s (%s) |\n", model.Speedup(s.GeoSpeedup), model.SpeedupRange(s.SpeedupCI), model.Pct(s.ChangePct), model.PctRange(s.ChangeCI))
		fmt.Fprintf(w, "\n**%s** — %s, practical threshold ±%.1f%%.\n", mdEscape(suiteVerdict(s.Verdict)), suiteLevel(&s), s.ThresholdPct)
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
	head.set("name", suiteTitle(s))
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
		row.setFloats(map[string]float64{"geo_speedup": m.Speedup, "change_pct": memberChange(m)})
		rows = append(rows, row)
	}
	return rows
}

// suiteLongRows are a suite's rows in the long schema, on the axis
// "time": a "suite" row with the geometric mean as a change (n members),
// then a "suite-member" row per member.
func suiteLongRows(s *ndjson.Suite) []longRow {
	head := make(longRow, len(longColumns))
	for col, v := range map[string]string{"kind": "suite", "name": suiteTitle(s), "axis": "time", "unit": "%",
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
		row.setNumbers(map[string]float64{"change": memberChange(m)})
		rows = append(rows, row)
	}
	return rows
}
