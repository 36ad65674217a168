// Package series writes fb-history's series records (fb-stream(5),
// RECORD series) in fb-report's console, markdown, csv and json formats:
// each case's level per run, oldest first.
package series

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Formats lists the formats that render series.
func Formats() []string { return []string{"console", "markdown", "csv", "json"} }

// Write renders series in format (one of Formats) to b.
func Write(b *bytes.Buffer, format string, all []ndjson.Series) error {
	switch format {
	case "console":
		for i := range all {
			console(b, &all[i])
		}
	case "markdown":
		for i := range all {
			markdown(b, &all[i])
		}
	case "csv":
		writeCSV(b, all)
	case "json":
		return writeJSON(b, all)
	default:
		return fmt.Errorf("format %s does not render series: use %s", format, strings.Join(Formats(), ", "))
	}
	return nil
}

// value prints a point's value in the metric's unit.
func value(metric string, v float64) string {
	if metric == "score" || metric == "time_ratio" {
		return model.Sig4(v)
	}
	return model.Dur(v)
}

func interval(metric string, ci *[2]float64) string {
	if ci == nil {
		return ""
	}
	if metric == "score" || metric == "time_ratio" {
		return model.Sig4(ci[0]) + " .. " + model.Sig4(ci[1])
	}
	return model.DurRange(ci[0], ci[1])
}

// Title is the series' one-line heading.
func Title(s *ndjson.Series) string {
	parts := []string{"case " + s.Case, strings.TrimSuffix(s.Metric, "_ns") + " per run"}
	switch {
	case s.Series == ndjson.SeriesChain:
		parts = []string{"chain " + s.Case + " vs " + s.Reference, "product of the paired time ratios (contender/reference)"}
	case s.Class != "":
		parts = append(parts, s.Class)
	default:
		parts = append(parts, "every machine class")
	}
	parts = append(parts, fmt.Sprintf("%d of %d runs", len(s.Points), s.Total))
	if len(s.Where) > 0 {
		var w []string
		for _, k := range slices.Sorted(maps.Keys(s.Where)) {
			w = append(w, k+"="+s.Where[k])
		}
		parts = append(parts, "where "+strings.Join(w, ", "))
	}
	return strings.Join(parts, " · ")
}

// sparkline draws values as eighth-height bars between their min and max.
func sparkline(points []ndjson.SeriesPoint) string {
	bars := []rune("▁▂▃▄▅▆▇█")
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo, hi = min(lo, p.Value), max(hi, p.Value)
	}
	var b strings.Builder
	for _, p := range points {
		i := 0
		if hi > lo {
			i = int(math.Round((p.Value - lo) / (hi - lo) * float64(len(bars)-1)))
		}
		b.WriteRune(bars[i])
	}
	return b.String()
}

// change is the last point's value relative to the first, in percent.
func change(s *ndjson.Series) string {
	if len(s.Points) < 2 || s.Points[0].Value == 0 {
		return ""
	}
	first, last := s.Points[0].Value, s.Points[len(s.Points)-1].Value
	return model.Pct((last/first - 1) * 100)
}

func console(b *bytes.Buffer, s *ndjson.Series) {
	fmt.Fprintf(b, "%s\n", Title(s))
	if len(s.Points) > 0 {
		fmt.Fprintf(b, "  %s  first %s, last %s", sparkline(s.Points), value(s.Metric, s.Points[0].Value),
			value(s.Metric, s.Points[len(s.Points)-1].Value))
		if c := change(s); c != "" {
			fmt.Fprintf(b, " (%s)", c)
		}
		b.WriteString("\n")
	}
	table(b, Table(s))
	for _, line := range ChangeLines(s) {
		b.WriteString("  " + line + "\n")
	}
	b.WriteString("\n")
}

// Table is the series' points as rows under a header row: started,
// revision, run, value, interval, n and the change at a change point.
// Columns 3 and 5 are numbers.
func Table(s *ndjson.Series) [][]string {
	rows := [][]string{{"started", "revision", "run", strings.TrimSuffix(s.Metric, "_ns"), "interval", "n", "change"}}
	marks := changeMarks(s)
	for i, p := range s.Points {
		rows = append(rows, []string{startedText(p.Started), p.Revision, model.ShortID(p.RunID), value(s.Metric, p.Value),
			interval(s.Metric, p.CI), strconv.Itoa(p.N), marks[i]})
	}
	return rows
}

// changeMarks is the change column: "▲ +8.3%" on the first point of a
// new level, "↗ drift +5.0%" on the first point of a drift and "drift
// ends" on its last, by point index.
func changeMarks(s *ndjson.Series) map[int]string {
	marks := map[int]string{}
	for _, c := range s.Changes {
		arrow := "▲"
		if c.ChangePct < 0 {
			arrow = "▼"
		}
		marks[c.Index] = arrow + " " + model.Pct(c.ChangePct)
	}
	for _, d := range s.Drifts {
		arrow := "↗"
		if d.ChangePct < 0 {
			arrow = "↘"
		}
		marks[d.From] = strings.TrimSpace(marks[d.From] + " " + arrow + " drift " + model.Pct(d.ChangePct))
		marks[d.To] = strings.TrimSpace(marks[d.To] + " drift ends")
	}
	return marks
}

// ChangeLines says what was looked for and what was found: a line of
// the method, then one indented line per change point.
func ChangeLines(s *ndjson.Series) []string {
	d := s.Detection
	if d == nil {
		return nil
	}
	how := fmt.Sprintf("%s, level %g, %d permutations, seed %d", d.Method, d.Level, d.Permutations, d.Seed)
	if d.Window > 0 {
		how = fmt.Sprintf("%s, level %g, %d permutations, windows of %d, seed %d", d.Method, d.Level, d.Permutations, d.Window, d.Seed)
	}
	if len(s.Changes) == 0 && len(s.Drifts) == 0 {
		return []string{"no change point (" + how + ")"}
	}
	lines := []string{fmt.Sprintf("%d change point(s) (%s):", len(s.Changes), how)}
	if len(s.Drifts) > 0 {
		lines[0] = fmt.Sprintf("%d change point(s) and %d drift(s) (%s):", len(s.Changes), len(s.Drifts), how)
	}
	for _, c := range s.Changes {
		lines = append(lines, fmt.Sprintf("  between run %s%s and %s%s: %s → %s (%s%s), p %.3g%s", model.ShortID(c.BeforeRun), revision(c.BeforeRevision),
			model.ShortID(c.AfterRun), revision(c.AfterRevision), value(s.Metric, c.Before), value(s.Metric, c.After), model.Pct(c.ChangePct),
			changeCI(d, c), c.P, changeRange(d, c)))
	}
	for _, e := range s.Drifts {
		lines = append(lines, fmt.Sprintf("  drift from run %s%s to %s%s, %d runs: %s → %s on the fitted line (%s), in place of %d change points",
			model.ShortID(e.FromRun), revision(e.FromRevision), model.ShortID(e.ToRun), revision(e.ToRevision), e.To-e.From+1,
			value(s.Metric, e.Start), value(s.Metric, e.End), model.Pct(e.ChangePct), e.Changes))
	}
	return lines
}

// changeCI is ", 95% CI +3.1% .. +5.2%", or "" without an interval.
func changeCI(d *ndjson.Detection, c ndjson.SeriesChange) string {
	if c.ChangeCI == nil {
		return ""
	}
	return fmt.Sprintf(", %s%% CI %s", model.Plain(cmp.Or(d.ConfidencePct, 95)), model.PctRange(*c.ChangeCI))
}

// changeRange is "; 95% placed after run X (r3), by Y (r9)" when the
// change's place is less sure than the two runs around it, or "".
func changeRange(d *ndjson.Detection, c ndjson.SeriesChange) string {
	g := c.Range
	if g == nil || g.From == g.To {
		return ""
	}
	return fmt.Sprintf("; %s%% placed after run %s%s, by %s%s", model.Plain(cmp.Or(d.ConfidencePct, 95)),
		model.ShortID(g.BeforeRun), revision(g.BeforeRevision), model.ShortID(g.AfterRun), revision(g.AfterRevision))
}

func revision(r string) string {
	if r == "" {
		return ""
	}
	return " (" + r + ")"
}

// startedText is an RFC 3339 time to the second.
func startedText(s string) string {
	if len(s) >= 19 && s[10] == 'T' {
		return s[:10] + " " + s[11:19]
	}
	return s
}

// table writes rows in columns two spaces apart, indented.
func table(b *bytes.Buffer, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		line := "  "
		for i, c := range r {
			line += c + strings.Repeat(" ", width[i]-len([]rune(c))+2)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

func markdown(b *bytes.Buffer, s *ndjson.Series) {
	fmt.Fprintf(b, "### %s\n\n", mdEscape(Title(s)))
	if c := change(s); c != "" {
		fmt.Fprintf(b, "`%s` last run %s against the first shown\n\n", sparkline(s.Points), c)
	}
	metric := strings.TrimSuffix(s.Metric, "_ns")
	fmt.Fprintf(b, "| started | revision | run | %s | interval | n | change |\n|---|---|---|---:|---|---:|---|\n", metric)
	marks := changeMarks(s)
	for i, p := range s.Points {
		fmt.Fprintf(b, "| %s | %s | `%s` | %s | %s | %d | %s |\n", startedText(p.Started), mdEscape(p.Revision), model.ShortID(p.RunID),
			value(s.Metric, p.Value), interval(s.Metric, p.CI), p.N, marks[i])
	}
	if lines := ChangeLines(s); len(lines) > 0 {
		b.WriteString("\n")
		for _, l := range lines {
			if strings.HasPrefix(l, "  ") {
				l = "- " + strings.TrimSpace(l)
			}
			b.WriteString(mdEscape(l) + "\n")
		}
	}
	b.WriteString("\n")
}

// mdEscape keeps a table cell one cell.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "*", `\*`, "_", `\_`).Replace(s)
}

// writeCSV writes one row per point, long form: the series' keys repeated.
func writeCSV(b *bytes.Buffer, all []ndjson.Series) {
	b.WriteString("case,metric,class,where,run_id,started,revision,value,ci_low,ci_high,n,change_pct,change_p,change_ci_low_pct,change_ci_high_pct,change_placed_after_run,change_placed_by_run,drift_pct,drift_last_run\n")
	for _, s := range all {
		var w []string
		for _, k := range slices.Sorted(maps.Keys(s.Where)) {
			w = append(w, k+"="+s.Where[k])
		}
		at := map[int]ndjson.SeriesChange{}
		for _, c := range s.Changes {
			at[c.Index] = c
		}
		drift := map[int]ndjson.SeriesDrift{}
		for _, d := range s.Drifts {
			drift[d.From] = d
		}
		for i, p := range s.Points {
			lo, hi := "", ""
			if p.CI != nil {
				lo, hi = model.Plain(p.CI[0]), model.Plain(p.CI[1])
			}
			row := []string{s.Case, s.Metric, s.Class, strings.Join(w, ";"), p.RunID, p.Started, p.Revision,
				model.Plain(p.Value), lo, hi, strconv.Itoa(p.N), "", "", "", "", "", "", "", ""}
			if c, ok := at[i]; ok {
				row[11], row[12] = model.Plain(c.ChangePct), model.Plain(c.P)
				if c.ChangeCI != nil {
					row[13], row[14] = model.Plain(c.ChangeCI[0]), model.Plain(c.ChangeCI[1])
				}
				if c.Range != nil {
					row[15], row[16] = c.Range.BeforeRun, c.Range.AfterRun
				}
			}
			if d, ok := drift[i]; ok {
				row[17], row[18] = model.Plain(d.ChangePct), d.ToRun
			}
			for i, c := range row {
				row[i] = csvCell(c)
			}
			b.WriteString(strings.Join(row, ",") + "\n")
		}
	}
}

// csvCell quotes a cell that needs it (RFC 4180).
func csvCell(c string) string {
	if strings.ContainsAny(c, ",\"\n\r") {
		return `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
	}
	return c
}

// writeJSON writes one document: {"schema": ..., "series": [...]}, each
// series as its record.
func writeJSON(b *bytes.Buffer, all []ndjson.Series) error {
	type doc struct {
		Schema string          `json:"schema"`
		Series []ndjson.Series `json:"series"`
	}
	all = slices.Clone(all)
	for i := range all {
		all[i].Type, all[i].V = ndjson.TypeSeries, cmp.Or(all[i].V, ndjson.Version)
	}
	out, err := json.MarshalIndent(doc{Schema: ndjson.Version, Series: all}, "", "  ")
	if err != nil {
		return err
	}
	b.Write(out)
	b.WriteString("\n")
	return nil
}
