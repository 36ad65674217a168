package csv

import (
	"bytes"
	stdcsv "encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// writeRecordingsCSV appends the recordings' rows to the csv format: a
// "span_summary" row per benchmark, a "span_comparison" row per compared
// benchmark.
func writeRecordingsCSV(w *bytes.Buffer, recs []*model.Recording) error {
	cw := stdcsv.NewWriter(w)
	for _, r := range recs {
		for i := range r.Summaries {
			if err := cw.Write(spanSummaryRow(r, &r.Summaries[i])); err != nil {
				return err
			}
		}
		for i := range r.Comparisons {
			if err := cw.Write(spanComparisonRow(r, &r.Comparisons[i])); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// percentileColumn is the column stem of percentile p: "p50", "p99_9".
func percentileColumn(p float64) string {
	return strings.ReplaceAll(words.Percentile(p), ".", "_")
}

func newSpanCSVRow(r *model.Recording, kind string) csvRow {
	row := make(csvRow, len(Columns))
	row.set("run_id", r.Record.RunID)
	row.set("kind", kind)
	row.set("unit", "ns")
	row.set("warnings", strings.Join(r.Warnings(), " | "))
	return row
}

func spanSummaryRow(r *model.Recording, s *ndjson.SpanSummary) csvRow {
	row := newSpanCSVRow(r, "span_summary")
	row.set("case", strconv.Itoa(s.Benchmark))
	row.set("name", s.Name)
	row.set("n", strconv.Itoa(s.N))
	row.set("sample_semantics", s.SampleSemantics)
	row.set("outcome", s.Outcome)
	row.set("wall_status", s.WallStatus)
	row.set("wall_available", strconv.FormatBool(axes.Status(s.WallStatus).Available()))
	row.set("retained_outcomes", outcomeCounts(s.RetainedOutcomes))
	row.set("observed_outcomes", outcomeCounts(s.Outcomes))
	if t := s.Tally; t != nil {
		for col, v := range map[string]int64{"observed": t.Observed, "retained": t.Retained, "omitted": t.Omitted, "unfinished": t.Unfinished} {
			row.set(col, strconv.FormatInt(v, 10))
		}
	}
	if s.Wall != nil {
		row.set("mean", model.Plain(s.Wall.Mean))
		for _, p := range s.Wall.Percentiles {
			col := percentileColumn(p.P)
			row.set(col+"_status", p.Status)
			if p.CI != nil {
				row.setFloats(map[string]float64{col + "_ns": p.Value, col + "_ci_low": p.CI[0], col + "_ci_high": p.CI[1]})
			}
		}
	}
	if all := append(append([]string{}, r.Warnings()...), s.Warnings...); len(all) > 0 {
		row.set("warnings", strings.Join(all, " | "))
	}
	return row
}

// outcomeCounts is "success=466 failure=8", in reading order.
func outcomeCounts(m map[string]int64) string {
	var parts []string
	for _, o := range words.SortedOutcomes(m) {
		parts = append(parts, fmt.Sprintf("%s=%d", o, m[o]))
	}
	return strings.Join(parts, " ")
}

func spanComparisonRow(r *model.Recording, k *ndjson.SpanComparison) csvRow {
	row := newSpanCSVRow(r, "span_comparison")
	row.set("run_id", k.ContenderRun)
	row.set("reference_run_id", k.ReferenceRun)
	row.set("name", k.Name)
	row.set("design", string(k.ComparisonDesign))
	row.set("outcome", k.Outcome)
	row.set("wall_available", strconv.FormatBool(k.WallAvailable))
	row.setFloats(map[string]float64{"confidence_pct": k.ConfidencePct, "threshold_pct": k.ThresholdPct})
	for _, ch := range k.Changes {
		col := percentileColumn(ch.P)
		row.set(col+"_verdict", string(ch.Verdict))
		if ch.ChangePct != nil && ch.CI != nil {
			row.setFloats(map[string]float64{col + "_change_pct": *ch.ChangePct, col + "_change_ci_low": ch.CI[0], col + "_change_ci_high": ch.CI[1]})
		}
	}
	if len(k.Warnings) > 0 {
		row.set("warnings", strings.Join(k.Warnings, " | "))
	}
	return row
}

// writeRecordingsLongCSV appends the recordings' rows to the long-csv
// format: per benchmark a "span_summary" row per axis and per wall-time
// percentile, per comparison a "span_comparison" row per percentile.
func writeRecordingsLongCSV(w *bytes.Buffer, recs []*model.Recording) error {
	cw := stdcsv.NewWriter(w)
	for _, r := range recs {
		for i := range r.Summaries {
			for _, row := range spanSummaryLongRows(r, &r.Summaries[i]) {
				if err := cw.Write(row); err != nil {
					return err
				}
			}
		}
		for i := range r.Comparisons {
			for _, row := range spanComparisonLongRows(r, &r.Comparisons[i]) {
				if err := cw.Write(row); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// newSpanLongRow fills what every row of an axis of a recording says.
func newSpanLongRow(r *model.Recording, kind, name string, a ndjson.AxisInfo, status, reason string) longRow {
	row := make(longRow, len(LongColumns))
	for col, v := range map[string]string{"run_id": r.Record.RunID, "kind": kind, "name": name, "axis": a.Name,
		"unit": a.Unit, "status": status, "reason": reason, "available": strconv.FormatBool(axes.Status(status).Available()),
		"scope": a.Scope, "attribution": a.Attribution, "direction": a.Direction, "normalization": a.Normalization,
		"warnings": strings.Join(r.Warnings(), " | ")} {
		row.set(col, v)
	}
	return row
}

func spanSummaryLongRows(r *model.Recording, s *ndjson.SpanSummary) []longRow {
	var rows []longRow
	for _, a := range s.Axes {
		row := newSpanLongRow(r, "span_summary", s.Name, r.AxisInfo(a.Name, a.Unit), a.Status, a.Reason)
		row.setSpanSummary(s)
		row.set("n", strconv.Itoa(a.N))
		row.set("missing", strconv.Itoa(a.Missing))
		if st := a.Stats; st != nil {
			row.setNumbers(map[string]float64{"median": st.Median, "mean": st.Mean, "min": st.Min,
				"max": st.Max, "mean_ci_low": st.MeanCI[0], "mean_ci_high": st.MeanCI[1]})
		}
		rows = append(rows, row)
	}
	if s.Wall == nil {
		return rows
	}
	wall := r.AxisInfo("wall", "ns")
	for _, p := range s.Wall.Percentiles {
		row := newSpanLongRow(r, "span_summary", s.Name, wall, s.WallStatus, "")
		row.setSpanSummary(s)
		row.set("percentile", words.Percentile(p.P))
		row.set("percentile_status", p.Status)
		if p.CI != nil {
			row.setNumbers(map[string]float64{"value": p.Value, "value_ci_low": p.CI[0], "value_ci_high": p.CI[1]})
		}
		rows = append(rows, row)
	}
	return rows
}

func (row longRow) setSpanSummary(s *ndjson.SpanSummary) {
	row.set("case", strconv.Itoa(s.Benchmark))
	row.set("sample_semantics", s.SampleSemantics)
	row.set("outcome", s.Outcome)
	if len(s.Warnings) > 0 {
		row.set("warnings", strings.Join(s.Warnings, " | "))
	}
}

func spanComparisonLongRows(r *model.Recording, k *ndjson.SpanComparison) []longRow {
	status, reason := string(axes.Collected), ""
	if !k.WallAvailable {
		status, reason = string(axes.PartiallyCollected), "wall time is incomplete in a compared recording: no change is given"
	}
	var rows []longRow
	for _, ch := range k.Changes {
		row := newSpanLongRow(r, "span_comparison", k.Name, r.AxisInfo("wall", "ns"), status, reason)
		row.set("run_id", k.ContenderRun)
		row.set("reference_run_id", k.ReferenceRun)
		row.set("comparison_design", string(k.ComparisonDesign))
		row.set("method", "independent percentile bootstrap")
		row.set("outcome", k.Outcome)
		row.set("percentile", words.Percentile(ch.P))
		row.set("verdict", string(ch.Verdict))
		row.set("confidence_pct", model.Plain(k.ConfidencePct))
		if ch.ChangePct != nil && ch.CI != nil {
			row.setNumbers(map[string]float64{"change": *ch.ChangePct, "ci_low": ch.CI[0], "ci_high": ch.CI[1]})
		}
		if len(k.Warnings) > 0 {
			row.set("warnings", strings.Join(k.Warnings, " | "))
		}
		rows = append(rows, row)
	}
	return rows
}
