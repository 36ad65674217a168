package csv

import (
	"bytes"
	stdcsv "encoding/csv"
	"math"
	"strconv"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// LongColumns is the long schema: one header for the whole output, a
// "summary" row per axis per case and a "comparison" row per axis per
// comparison, wall time included. available is "true" exactly when status
// is "collected"; an axis without a value leaves its number cells empty,
// never 0. Columns are only ever added at the end.
var LongColumns = []string{
	"run_id", "kind", "case", "name", "contender", "contender_name",
	"axis", "unit", "status", "available", "reason",
	"scope", "attribution", "direction", "normalization", "method",
	"n", "missing", "median", "mean", "min", "max", "mean_ci_low", "mean_ci_high",
	"reference_median", "contender_median", "change", "ci_low", "ci_high", "verdict",
	// The run's warnings, as in the csv format.
	"warnings",
	// The level of the row's interval, and the size of the run's family
	// when the row's comparison is in it (empty for axes outside it).
	"confidence_pct", "family_m",
	// "reference-workload" on the rows of the --reference workload's case.
	"role",
	// Recordings (recording.go): "span_summary" rows per axis and per
	// wall-time percentile of individual spans, "span_comparison" rows
	// per compared percentile, with comparison_design "independent".
	"sample_semantics", "outcome", "percentile", "percentile_status", "value", "value_ci_low", "value_ci_high",
	"reference_run_id", "comparison_design",
}

var longIndex = columnIndex(LongColumns)

// longRow is one row of the long schema, filled by column name. Setting a
// column the schema lacks is a programming error and panics.
type longRow []string

func (row longRow) set(col, v string) { setColumn(row, longIndex, "long-csv", col, v) }

// setNumbers fills number columns; a NaN or infinite value stays empty.
func (row longRow) setNumbers(values map[string]float64) {
	for col, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			row.set(col, model.Plain(v))
		}
	}
}

// newLongRow fills what every row of an axis says: its identity, its
// status and its provenance from the run record.
func newLongRow(r *model.Run, kind, axis, unit, status, reason string) longRow {
	info := r.AxisInfo(axis)
	if unit == "" {
		unit = info.Unit
	}
	row := make(longRow, len(LongColumns))
	for col, v := range map[string]string{"run_id": r.Run.RunID, "kind": kind, "axis": axis,
		"unit": unit, "status": status, "reason": reason,
		"available": strconv.FormatBool(axes.Status(status).Available()),
		"scope":     info.Scope, "attribution": info.Attribution,
		"direction": info.Direction, "normalization": info.Normalization, "warnings": joinWarnings(r)} {
		row.set(col, v)
	}
	return row
}

// WriteLong writes a stream in the long schema: the header, each run's
// rows per axis, the suites' rows, then the recordings'.
func WriteLong(w *bytes.Buffer, s *model.Stream) error {
	cw := stdcsv.NewWriter(w)
	if err := cw.Write(LongColumns); err != nil {
		return err
	}
	for _, r := range s.Runs {
		for _, row := range longRows(r) {
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	for _, st := range model.Suites(s.Runs) {
		for _, row := range suiteLongRows(&st) {
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return writeRecordingsLongCSV(w, s.Recordings)
}

// longRows are a run's rows: every case's axes, then every comparison's.
func longRows(r *model.Run) []longRow {
	var rows []longRow
	for i := range r.Summaries {
		s := &r.Summaries[i]
		for _, a := range model.SummaryAxes(s) {
			rows = append(rows, longSummaryRow(r, s, &a))
		}
	}
	rows = append(rows, longNormalizedRows(r)...)
	markLongRoles(r, rows)
	for i := range r.Comparisons {
		k := &r.Comparisons[i]
		for j, a := range model.ComparisonAxes(r, k) {
			row := longComparisonRow(r, k, &a)
			row.setLevel(r, k, &a, j == 0)
			rows = append(rows, row)
		}
	}
	for i := range r.Baseline {
		k := &r.Baseline[i]
		for _, a := range model.ComparisonAxes(r, k) {
			row := longComparisonRow(r, k, &a)
			row.set("kind", "baseline")
			row.set("name", k.ReferenceName)
			rows = append(rows, row)
		}
	}
	return rows
}

func longSummaryRow(r *model.Run, s *ndjson.Summary, a *ndjson.AxisSummary) longRow {
	row := newLongRow(r, "summary", a.Name, a.Unit, model.SummaryStatus(a), a.Reason)
	row.set("case", strconv.Itoa(s.Case))
	row.set("name", r.CaseName(s.Case))
	row.set("n", strconv.Itoa(a.N))
	row.set("missing", strconv.Itoa(a.Missing))
	if st := a.Stats; st != nil && a.N > 0 {
		row.setNumbers(map[string]float64{"median": st.Median, "mean": st.Mean, "min": st.Min,
			"max": st.Max, "mean_ci_low": st.MeanCI[0], "mean_ci_high": st.MeanCI[1]})
	}
	return row
}

func longComparisonRow(r *model.Run, k *ndjson.Comparison, a *ndjson.AxisComparison) longRow {
	ref, con := words.Names(r, k)
	row := newLongRow(r, "comparison", a.Name, a.Unit, model.ComparisonStatus(a), a.Reason)
	row.set("case", strconv.Itoa(k.Reference))
	row.set("name", ref)
	row.set("contender", strconv.Itoa(k.Contender))
	row.set("contender_name", con)
	if !model.Collected(a) {
		return row
	}
	res := a.Result
	row.set("method", res.Method)
	row.set("n", strconv.Itoa(res.N))
	row.set("verdict", res.Verdict)
	nums := map[string]float64{"reference_median": res.RefMedian, "contender_median": res.ConMedian,
		"change": res.Change, "ci_low": res.CI[0], "ci_high": res.CI[1]}
	if words.IsExact(res) { // an exact difference has no interval
		delete(nums, "ci_low")
		delete(nums, "ci_high")
	}
	row.setNumbers(nums)
	return row
}
