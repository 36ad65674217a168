// Package csv is fb-report's two CSV formats: csv, the stable latency
// schema with a row per case and per comparison (Columns), and long-csv,
// a row per axis of every case and comparison, wall time included
// (LongColumns). A value the stream does not hold is an empty cell, never
// 0; columns are only ever added at the end.
package csv

import (
	"bytes"
	stdcsv "encoding/csv"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Columns is the stable latency schema: one header for the whole output,
// a "summary" row per case and a "comparison" row per comparison. Columns
// are only ever added at the end.
var Columns = []string{
	"run_id", "kind", "case", "name", "contender", "contender_name", "n", "unit",
	"min", "median", "mean", "p95", "p99", "max", "sd", "mad", "cv_pct",
	"mean_ci_low", "mean_ci_high",
	"outliers_low_severe", "outliers_low_mild", "outliers_high_mild", "outliers_high_severe",
	"lag1", "iterations", "median_batch_ns",
	"geo_speedup", "median_speedup", "speedup_ci_low", "speedup_ci_high",
	"change_pct", "change_ci_low", "change_ci_high", "verdict",
	"order_effect_pct", "reference_first", "contender_first", "wins", "losses", "ties",
	"design", "batching", "confidence_pct", "threshold_pct",
	// The run's environment record, the same on every row of the run.
	"watched", "attribution", "windows", "observed_samples", "mean_foreign_pct", "peak_foreign_pct",
	"contaminated_samples", "retaken_samples", "pauses", "paused_ns", "budget_exhausted",
	"placement", "attribution_diluted", "lock", "gate", "conditions_profile", "conditions_throttle",
	// The run's timer kind: wall, self or cpu; the summary statistics are
	// of that time per operation.
	"timer",
	// The decision estimate (speedup, speedup_ci_*, change_* and verdict
	// are its) beside the geometric mean (geo_speedup, geo_change_*).
	"estimator", "speedup", "geo_change_pct", "geo_change_ci_low", "geo_change_ci_high",
	"rejected", "rejected_reference_slow", "rejected_contender_slow", "leader_pct",
	// A stopping rule (--until): how the run ended.
	"until", "settled", "stop_reason", "looks", "overall_confidence_pct", "stop_units", "stop_elapsed_ns",
	// The run's warnings (the analysis's, then the stream's), joined by " | ".
	"warnings",
	// Rows of kind "baseline" (fb-analyze --baseline): the baseline run,
	// whether scores were reference-normalized, the fingerprint fields
	// allowed to differ (space-separated).
	"baseline_run_id", "baseline_file", "baseline_normalized", "allowed_mismatches",
	// The tool an imported run came from (fb-import: "hyperfine"); empty
	// for a run flybench collected.
	"source",
	// The run's family (fb-analyze --multiplicity, --family): the rule,
	// the scope, m, the family confidence and each comparison's level
	// before any spending over looks.
	"multiplicity", "family", "family_m", "family_confidence_pct", "per_comparison_pct",
	// The reference workload (--reference): its case's role, and every
	// other case's score in its units with the interval.
	"role", "normalized", "normalized_ci_low", "normalized_ci_high", "normalized_reference_case",
	// The tail-latency view of a summary row: "ok" or "insufficient
	// evidence", the single operations it rests on, and its percentiles of
	// single operations (empty without the view).
	"tail_status", "tail_observations", "tail_p50", "tail_p90", "tail_p95", "tail_p99",
	// The batch-throughput view (--work-units): a summary's work units and
	// units per second with the interval; a comparison's direction-aware
	// improvement (positive: more work per second), interval and verdict.
	"work_units", "units_per_sec", "units_per_sec_ci_low", "units_per_sec_ci_high",
	"throughput_improvement_pct", "throughput_ci_low", "throughput_ci_high", "throughput_verdict",
	// The process-level comparison (--invocations): BCa over complete
	// process blocks, the direction-aware improvement (positive: the
	// contender is faster) with its interval, level and verdict.
	"process_status", "process_runs", "process_method", "process_improvement_pct",
	"process_ci_low", "process_ci_high", "process_confidence_pct", "process_verdict",
	// Recordings (recording.go): a "span_summary" row per benchmark and a
	// "span_comparison" row per compared benchmark, percentiles of individual
	// spans; outcome counts as "success=466 failure=8"; a percentile without
	// enough spans has its status and empty numbers; a comparison without
	// complete wall time has empty changes.
	"sample_semantics", "outcome", "reference_run_id", "observed", "retained", "omitted", "unfinished",
	"observed_outcomes", "retained_outcomes", "wall_status", "wall_available",
	"p50_ns", "p50_status", "p50_ci_low", "p50_ci_high",
	"p90_ns", "p90_status", "p90_ci_low", "p90_ci_high",
	"p95_ns", "p95_status", "p95_ci_low", "p95_ci_high",
	"p99_ns", "p99_status", "p99_ci_low", "p99_ci_high",
	"p99_9_ns", "p99_9_status", "p99_9_ci_low", "p99_9_ci_high",
	"p50_change_pct", "p50_change_ci_low", "p50_change_ci_high", "p50_verdict",
	"p90_change_pct", "p90_change_ci_low", "p90_change_ci_high", "p90_verdict",
	"p95_change_pct", "p95_change_ci_low", "p95_change_ci_high", "p95_verdict",
	"p99_change_pct", "p99_change_ci_low", "p99_change_ci_high", "p99_verdict",
	// A summary row's parameter values (fb-pair --parameter-scan or
	// --parameter-list, fb-import of a hyperfine scan) as "k=v;k=v",
	// names sorted; empty for a case without parameters.
	"params",
}

var csvIndex = columnIndex(Columns)

// columnIndex maps each column name of a CSV schema to its position.
func columnIndex(columns []string) map[string]int {
	m := make(map[string]int, len(columns))
	for i, c := range columns {
		m[c] = i
	}
	return m
}

// setColumn sets column col of a row of the schema index describes; a
// column the schema lacks is a programming error and panics.
func setColumn(row []string, index map[string]int, schema, col, v string) {
	i, ok := index[col]
	if !ok {
		panic("report: no " + schema + " column " + col)
	}
	row[i] = v
}

// csvRow is one output row, filled by column name. Setting a column the
// schema lacks is a programming error and panics.
type csvRow []string

func newCSVRow(r *model.Run, kind string) csvRow {
	row := make(csvRow, len(Columns))
	row.set("run_id", r.Run.RunID)
	row.set("kind", kind)
	row.set("design", string(r.Run.Design))
	row.set("batching", r.Run.Batching)
	row.set("confidence_pct", model.Plain(r.Analysis.ConfidencePct))
	row.set("threshold_pct", model.Plain(r.Analysis.ThresholdPct))
	row.set("timer", string(r.Run.Timer.KindOf()))
	row.setEnvironment(r)
	row.setUntil(r)
	row.setFamily(r)
	row.set("warnings", joinWarnings(r))
	row.set("source", r.Run.Source)
	return row
}

// joinWarnings is the run's warnings in one cell.
func joinWarnings(r *model.Run) string { return strings.Join(r.Warnings(), " | ") }

func (row csvRow) set(col, v string) { setColumn(row, csvIndex, "CSV", col, v) }

func (row csvRow) setFloats(values map[string]float64) {
	for col, v := range values {
		row.set(col, model.Plain(v))
	}
}

func (row csvRow) setInts(values map[string]int) {
	for col, v := range values {
		row.set(col, strconv.Itoa(v))
	}
}

// Write writes a stream in the csv schema: the header, each run's summary,
// comparison and baseline rows, the suites' rows, then the recordings'.
func Write(w *bytes.Buffer, s *model.Stream) error {
	cw := stdcsv.NewWriter(w)
	if err := cw.Write(Columns); err != nil {
		return err
	}
	for _, r := range s.Runs {
		for i := range r.Summaries {
			if err := cw.Write(summaryRow(r, &r.Summaries[i])); err != nil {
				return err
			}
		}
		for i := range r.Comparisons {
			if err := cw.Write(comparisonRow(r, &r.Comparisons[i])); err != nil {
				return err
			}
		}
		for _, row := range baselineCSVRows(r) {
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	for _, st := range model.Suites(s.Runs) {
		for _, row := range suiteCSVRows(&st) {
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return writeRecordingsCSV(w, s.Recordings)
}

func summaryRow(r *model.Run, s *ndjson.Summary) csvRow {
	row := newCSVRow(r, "summary")
	row.set("name", r.CaseName(s.Case))
	row.set("unit", "ns/op")
	row.set("iterations", strconv.FormatInt(s.Iterations, 10))
	row.setInts(map[string]int{"case": s.Case, "n": s.N,
		"outliers_low_severe": s.Outliers.LowSevere, "outliers_low_mild": s.Outliers.LowMild,
		"outliers_high_mild": s.Outliers.HighMild, "outliers_high_severe": s.Outliers.HighSevere})
	row.setFloats(map[string]float64{"min": s.Min, "median": s.Median, "mean": s.Mean,
		"p95": s.P95, "p99": s.P99, "max": s.Max, "sd": s.SD, "mad": s.MAD, "cv_pct": s.CVPct,
		"mean_ci_low": s.MeanCI[0], "mean_ci_high": s.MeanCI[1],
		"lag1": s.Lag1, "median_batch_ns": s.MedianBatchNS})
	row.setNormalized(r, s)
	row.setTail(s)
	row.setThroughput(s)
	row.set("params", r.CaseParams(s.Case))
	return row
}

// comparisonRow leaves the summary columns empty except the reference's
// case and name. Design, batching, confidence and threshold are the
// comparison's own when it records them.
func comparisonRow(r *model.Run, k *ndjson.Comparison) csvRow {
	ref, con := words.Names(r, k)
	row := newCSVRow(r, "comparison")
	row.set("name", ref)
	row.set("contender_name", con)
	row.set("verdict", string(k.Verdict))
	row.setThroughputChange(k)
	row.setProcess(k)
	row.setInts(map[string]int{"case": k.Reference, "contender": k.Contender,
		"reference_first": k.ReferenceFirst, "contender_first": k.ContenderFirst,
		"wins": k.ContenderWins, "losses": k.ReferenceWins, "ties": k.Ties})
	row.setFloats(map[string]float64{"geo_speedup": k.GeoSpeedup, "median_speedup": k.MedianSpeedup,
		"speedup_ci_low": k.SpeedupCI[0], "speedup_ci_high": k.SpeedupCI[1],
		"change_pct": k.ChangePct, "change_ci_low": k.ChangeCI[0], "change_ci_high": k.ChangeCI[1],
		"order_effect_pct": k.OrderEffectPct, "speedup": words.DecisionSpeedup(k)})
	row.set("estimator", words.Estimator(k))
	if k.Geo != nil {
		row.setFloats(map[string]float64{"geo_change_pct": k.Geo.ChangePct,
			"geo_change_ci_low": k.Geo.ChangeCI[0], "geo_change_ci_high": k.Geo.ChangeCI[1]})
	}
	if f := k.Robust; f != nil {
		row.setInts(map[string]int{"rejected": f.Rejected, "rejected_reference_slow": f.ReferenceSlow,
			"rejected_contender_slow": f.ContenderSlow})
		row.setFloats(map[string]float64{"leader_pct": f.LeaderPct})
	}
	if k.Design != "" {
		row.set("design", string(k.Design))
	}
	if k.Batching != "" {
		row.set("batching", k.Batching)
	}
	if k.ConfidencePct != 0 {
		row.set("confidence_pct", model.Plain(k.ConfidencePct))
		row.set("threshold_pct", model.Plain(k.ThresholdPct))
	}
	return row
}

// setUntil fills the stopping-rule columns, the same on every row of a
// run: the rule, how it ended, after how many looks, units and how long,
// and the overall confidence the looks shared.
func (row csvRow) setUntil(r *model.Run) {
	u := r.Run.Config.Until
	if u == nil {
		return
	}
	row.set("until", u.Rule)
	if r.Analysis != nil {
		row.setFloats(map[string]float64{"overall_confidence_pct": r.Analysis.ConfidencePct})
	}
	if e := r.End; e != nil && e.Until != nil {
		row.set("settled", strconv.FormatBool(e.Until.Settled))
		row.set("stop_reason", e.Until.Reason)
		row.setInts(map[string]int{"looks": e.Until.Looks, "stop_units": e.Until.Units})
		row.set("stop_elapsed_ns", strconv.FormatInt(e.Until.ElapsedNS, 10))
	}
}
