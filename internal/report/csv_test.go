package report

import (
	"bytes"
	stdcsv "encoding/csv"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/csv"
	"github.com/flybench/flybench/internal/report/model"
)

func TestCSVShape(t *testing.T) {
	out := render(t, fixtureRuns(t), Options{Format: "csv"})
	rows, err := stdcsv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV with a constant column count: %v", err)
	}
	if !slices.Equal(rows[0], csv.Columns) {
		t.Fatalf("header = %v", rows[0])
	}
	kinds := map[string]int{}
	for i, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			t.Errorf("row %d has %d columns, header %d", i+2, len(row), len(rows[0]))
		}
		kinds[row[csvCol["kind"]]]++
		if slices.Equal(row, rows[0]) {
			t.Errorf("row %d repeats the header", i+2)
		}
	}
	if kinds["summary"] != 10 || kinds["comparison"] != 6 || len(kinds) != 2 {
		t.Errorf("row kinds = %v, want 10 summaries and 6 comparisons", kinds)
	}
}

func TestCSVNumbersRoundTrip(t *testing.T) {
	runs := fixtureRuns(t)
	out := render(t, runs, Options{Format: "csv"})
	rows, _ := stdcsv.NewReader(bytes.NewReader(out)).ReadAll()
	for _, row := range rows[1:] {
		if row[csvCol["kind"]] != "summary" || row[csvCol["run_id"]] != singleID {
			continue
		}
		s := runs[3].Summaries[0]
		for col, want := range map[string]float64{"median": s.Median, "floor_ns": -1, "sd": s.SD, "mean_ci_low": s.MeanCI[0]} {
			if want < 0 {
				if _, ok := csvCol[col]; ok {
					t.Errorf("column %s is not in the stable schema", col)
				}
				continue
			}
			got, err := strconv.ParseFloat(row[csvCol[col]], 64)
			if err != nil || got != want {
				t.Errorf("%s = %q, want %v", col, row[csvCol[col]], want)
			}
		}
	}
}

// csvSchema is the stable latency schema as documented. Columns are only
// ever appended: a change anywhere but the end breaks every consumer.
const csvSchema = "run_id,kind,case,name,contender,contender_name,n,unit," +
	"min,median,mean,p95,p99,max,sd,mad,cv_pct,mean_ci_low,mean_ci_high," +
	"outliers_low_severe,outliers_low_mild,outliers_high_mild,outliers_high_severe," +
	"lag1,iterations,median_batch_ns,geo_speedup,median_speedup,speedup_ci_low,speedup_ci_high," +
	"change_pct,change_ci_low,change_ci_high,verdict," +
	"order_effect_pct,reference_first,contender_first,wins,losses,ties," +
	"design,batching,confidence_pct,threshold_pct," +
	// Schema 1.2: the run's environment record.
	"watched,attribution,windows,observed_samples,mean_foreign_pct,peak_foreign_pct," +
	"contaminated_samples,retaken_samples,pauses,paused_ns,budget_exhausted," +
	"placement,attribution_diluted,lock,gate,conditions_profile,conditions_throttle," +
	// Schema 1.3: the run's timer kind.
	"timer," +
	// Schema 1.3: the decision estimate beside the geometric mean.
	"estimator,speedup,geo_change_pct,geo_change_ci_low,geo_change_ci_high," +
	"rejected,rejected_reference_slow,rejected_contender_slow,leader_pct," +
	// Schema 1.3: a stopping rule's outcome.
	"until,settled,stop_reason,looks,overall_confidence_pct,stop_units,stop_elapsed_ns," +
	// The run's warnings, the stream's included (a torn last line).
	"warnings," +
	// Schema 1.4: rows of kind "baseline" (fb-analyze --baseline).
	"baseline_run_id,baseline_file,baseline_normalized,allowed_mismatches," +
	// Schema 1.4: the tool an imported run came from.
	"source," +
	// Schema 1.4: the run's family.
	"multiplicity,family,family_m,family_confidence_pct,per_comparison_pct," +
	// Schema 1.4: the reference workload's role and the normalized scores.
	"role,normalized,normalized_ci_low,normalized_ci_high,normalized_reference_case," +
	// Schema 1.4: the tail-latency view.
	"tail_status,tail_observations,tail_p50,tail_p90,tail_p95,tail_p99," +
	// Schema 1.4: the batch-throughput view.
	"work_units,units_per_sec,units_per_sec_ci_low,units_per_sec_ci_high," +
	"throughput_improvement_pct,throughput_ci_low,throughput_ci_high,throughput_verdict," +
	// Schema 1.4: the process-level comparison.
	"process_status,process_runs,process_method,process_improvement_pct," +
	"process_ci_low,process_ci_high,process_confidence_pct,process_verdict," +
	// Schema 1.4: recordings' span_summary and span_comparison rows.
	"sample_semantics,outcome,reference_run_id,observed,retained,omitted,unfinished," +
	"observed_outcomes,retained_outcomes,wall_status,wall_available," +
	"p50_ns,p50_status,p50_ci_low,p50_ci_high," +
	"p90_ns,p90_status,p90_ci_low,p90_ci_high," +
	"p95_ns,p95_status,p95_ci_low,p95_ci_high," +
	"p99_ns,p99_status,p99_ci_low,p99_ci_high," +
	"p99_9_ns,p99_9_status,p99_9_ci_low,p99_9_ci_high," +
	"p50_change_pct,p50_change_ci_low,p50_change_ci_high,p50_verdict," +
	"p90_change_pct,p90_change_ci_low,p90_change_ci_high,p90_verdict," +
	"p95_change_pct,p95_change_ci_low,p95_change_ci_high,p95_verdict," +
	"p99_change_pct,p99_change_ci_low,p99_change_ci_high,p99_verdict," +
	"params"

func TestCSVHeaderIsStable(t *testing.T) {
	if got := strings.Join(csv.Columns, ","); got != csvSchema {
		t.Fatalf("header =\n%s\nwant\n%s", got, csvSchema)
	}
}

// TestCSVEnvironmentColumns checks that every row of a run carries the
// same environment cells, empty when the run has no environment record,
// and that an unwatched run leaves the foreign shares empty, not 0.
func TestCSVEnvironmentColumns(t *testing.T) {
	runs := allRuns(t)
	rows, err := stdcsv.NewReader(bytes.NewReader(render(t, runs, Options{Format: "csv"}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	byRun := map[string][]string{}
	for _, row := range rows[1:] {
		id, cells := row[csvCol["run_id"]], row[csvCol["watched"]:csvCol["conditions_throttle"]+1]
		if first, ok := byRun[id]; ok && !slices.Equal(first, cells) {
			t.Errorf("run %s: environment cells differ between rows: %v and %v", id, first, cells)
		}
		byRun[id] = cells
	}
	for _, r := range runs {
		cells := byRun[r.Run.RunID]
		if r.Environment == nil && strings.Join(cells, "") != "" {
			t.Errorf("run %s has no environment record but cells %v", r.Run.RunID, cells)
		}
	}
	want := map[string]string{"watched": "true", "attribution": "host_wide", "windows": "10",
		"observed_samples": "64", "peak_foreign_pct": "31.4", "contaminated_samples": "10",
		"retaken_samples": "30", "pauses": "1", "paused_ns": "812000000", "budget_exhausted": "true",
		"placement": "strict", "attribution_diluted": "true", "lock": "held", "gate": "passed",
		"conditions_profile": "performance", "conditions_throttle": "3"}
	checkCells(t, envRetakeID, byRun[envRetakeID], want)
	want = map[string]string{"watched": "false", "windows": "3", "observed_samples": "30",
		"mean_foreign_pct": "", "peak_foreign_pct": "", "contaminated_samples": "", "retaken_samples": "0",
		"budget_exhausted": "false", "placement": "not_requested", "lock": "busy", "gate": "not_requested",
		"conditions_profile": "unavailable", "conditions_throttle": "unavailable"}
	checkCells(t, envBusyID, byRun[envBusyID], want)
}

func checkCells(t *testing.T, id string, cells []string, want map[string]string) {
	t.Helper()
	for col, v := range want {
		if got := cells[csvCol[col]-csvCol["watched"]]; got != v {
			t.Errorf("run %s: %s = %q, want %q", model.ShortID(id), col, got, v)
		}
	}
}

// csvCol maps each column of the csv schema to its position.
var csvCol = func() map[string]int {
	m := map[string]int{}
	for i, c := range csv.Columns {
		m[c] = i
	}
	return m
}()
