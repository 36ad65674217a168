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

// longSchema is the long-csv header as documented; changing it breaks
// every consumer, so it is written out here rather than taken from the code.
const longSchema = "run_id,kind,case,name,contender,contender_name,axis,unit,status,available,reason," +
	"scope,attribution,direction,normalization,method,n,missing,median,mean,min,max,mean_ci_low,mean_ci_high," +
	"reference_median,contender_median,change,ci_low,ci_high,verdict,warnings," +
	// Schema 1.4: the interval's level and the family it belongs to.
	"confidence_pct,family_m," +
	// Schema 1.4: the reference workload's role.
	"role," +
	// Schema 1.4: recordings' span_summary and span_comparison rows.
	"sample_semantics,outcome,percentile,percentile_status,value,value_ci_low,value_ci_high,reference_run_id,comparison_design"

// valueColumns hold an axis's values; an axis without values leaves them
// empty. n and missing are counts of samples, not values, and stay.
var valueColumns = []string{"method", "median", "mean", "min", "max", "mean_ci_low", "mean_ci_high",
	"reference_median", "contender_median", "change", "ci_low", "ci_high", "verdict"}

// longCSV renders runs as long-csv and parses it back, checking that it is
// CSV whose every row has the header's column count.
func longCSV(t *testing.T, runs []*model.Run) (header []string, rows []map[string]string) {
	t.Helper()
	out := render(t, runs, Options{Format: "long-csv"})
	r := stdcsv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	if err != nil {
		t.Fatalf("long-csv output is not CSV: %v", err)
	}
	header = records[0]
	for i, rec := range records[1:] {
		if len(rec) != len(header) {
			t.Errorf("row %d has %d columns, header %d", i+2, len(rec), len(header))
			continue
		}
		if slices.Equal(rec, header) {
			t.Errorf("row %d repeats the header", i+2)
		}
		row := map[string]string{}
		for j, col := range header {
			row[col] = rec[j]
		}
		rows = append(rows, row)
	}
	return header, rows
}

func TestLongCSVShape(t *testing.T) {
	runs := allRuns(t)
	header, rows := longCSV(t, runs)
	if got := strings.Join(header, ","); got != longSchema {
		t.Fatalf("header =\n%s\nwant\n%s", got, longSchema)
	}
	if !slices.Equal(header, csv.LongColumns) {
		t.Errorf("longColumns and the documented schema differ")
	}
	want := map[string]int{}
	for _, r := range runs {
		for i := range r.Summaries {
			want["summary"] += max(len(r.Summaries[i].Axes), 1)
		}
		for i := range r.Comparisons {
			want["comparison"] += max(len(r.Comparisons[i].Axes), 1)
		}
	}
	got := map[string]int{}
	for _, row := range rows {
		got[row["kind"]]++
	}
	if got["summary"] != want["summary"] || got["comparison"] != want["comparison"] || len(got) != 2 {
		t.Errorf("row kinds = %v, want %v", got, want)
	}
}

func TestLongCSVAvailableAgreesWithStatus(t *testing.T) {
	_, rows := longCSV(t, allRuns(t))
	statuses := map[string]bool{}
	for i, row := range rows {
		statuses[row["status"]] = true
		want := strconv.FormatBool(row["status"] == "collected")
		if row["available"] != want {
			t.Errorf("row %d (%s %s): available %q with status %q", i+2, row["kind"], row["axis"], row["available"], row["status"])
		}
		if row["status"] == "" {
			t.Errorf("row %d (%s %s) has no status", i+2, row["kind"], row["axis"])
		}
	}
	for _, st := range []string{"collected", "partially_collected", "unsupported_event", "counter_resources_unavailable"} {
		if !statuses[st] {
			t.Errorf("the fixture yields no row with status %s", st)
		}
	}
}

func TestLongCSVUnavailableCellsAreEmpty(t *testing.T) {
	_, rows := longCSV(t, allRuns(t))
	seen := 0
	for i, row := range rows {
		noValues := row["available"] == "false" && (row["kind"] == "comparison" || row["n"] == "0")
		if !noValues {
			continue
		}
		seen++
		for _, col := range valueColumns {
			if row[col] != "" {
				t.Errorf("row %d (%s %s, %s): %s = %q, want empty", i+2, row["kind"], row["axis"], row["status"], col, row[col])
			}
		}
		if row["reason"] == "" {
			t.Errorf("row %d (%s %s): unavailable without a reason", i+2, row["kind"], row["axis"])
		}
	}
	if seen < 10 {
		t.Errorf("only %d rows without values; the fixture should have cycles, ipc, read_bytes and branch_misses", seen)
	}
}

func TestLongCSVCollectedRowsHaveValues(t *testing.T) {
	_, rows := longCSV(t, allRuns(t))
	for i, row := range rows {
		if row["available"] != "true" {
			continue
		}
		cols := []string{"median", "mean", "mean_ci_low", "mean_ci_high"}
		if row["kind"] == "comparison" {
			cols = []string{"method", "change", "ci_low", "ci_high", "verdict"}
		}
		for _, col := range cols {
			if row[col] == "" {
				t.Errorf("row %d (%s %s): collected but %s is empty", i+2, row["kind"], row["axis"], col)
			}
		}
	}
}

func TestLongCSVValuesAndProvenance(t *testing.T) {
	runs := allRuns(t)
	_, rows := longCSV(t, runs)
	pair := runs[4]
	for _, row := range rows {
		if row["run_id"] != pair.Run.RunID {
			continue
		}
		info := pair.AxisInfo(row["axis"])
		if row["scope"] != info.Scope || row["attribution"] != info.Attribution ||
			row["direction"] != info.Direction || row["normalization"] != info.Normalization {
			t.Errorf("%s %s: provenance %s/%s/%s/%s, want %+v", row["kind"], row["axis"],
				row["scope"], row["attribution"], row["direction"], row["normalization"], info)
		}
		if row["kind"] == "summary" && row["axis"] == "wall" {
			s := pair.Summary(atoi(t, row["case"]))
			if got, _ := strconv.ParseFloat(row["median"], 64); got != s.Median {
				t.Errorf("wall median of case %s = %s, want %v", row["case"], row["median"], s.Median)
			}
		}
	}
}

// TestLongCSVOlderStreams restates wall time for streams without axes.
func TestLongCSVOlderStreams(t *testing.T) {
	runs := fixtureRuns(t)
	_, rows := longCSV(t, runs[:1])
	if len(rows) != 3 {
		t.Fatalf("%d rows for a two-case run without axes, want 2 summaries and 1 comparison", len(rows))
	}
	k := runs[0].Comparisons[0]
	last := rows[2]
	if last["axis"] != "wall" || last["change"] != model.Plain(k.ChangePct) || last["verdict"] != "contender better" ||
		last["reference_median"] != model.Plain(runs[0].Summaries[0].Median) || last["scope"] != "batch_wall_clock" {
		t.Errorf("restated wall comparison = %v", last)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
