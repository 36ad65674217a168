package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strconv"
	"testing"
)

func TestCSVShape(t *testing.T) {
	out := render(t, fixtureRuns(t), Options{Format: "csv"})
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("output is not CSV with a constant column count: %v", err)
	}
	if !slices.Equal(rows[0], csvColumns) {
		t.Fatalf("header = %v", rows[0])
	}
	kinds := map[string]int{}
	for i, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			t.Errorf("row %d has %d columns, header %d", i+2, len(row), len(rows[0]))
		}
		kinds[row[csvIndex["kind"]]]++
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
	rows, _ := csv.NewReader(bytes.NewReader(out)).ReadAll()
	for _, row := range rows[1:] {
		if row[csvIndex["kind"]] != "summary" || row[csvIndex["run_id"]] != singleID {
			continue
		}
		s := runs[3].Summaries[0]
		for col, want := range map[string]float64{"median": s.Median, "floor_ns": -1, "sd": s.SD, "mean_ci_low": s.MeanCI[0]} {
			if want < 0 {
				if _, ok := csvIndex[col]; ok {
					t.Errorf("column %s is not in the stable schema", col)
				}
				continue
			}
			got, err := strconv.ParseFloat(row[csvIndex[col]], 64)
			if err != nil || got != want {
				t.Errorf("%s = %q, want %v", col, row[csvIndex[col]], want)
			}
		}
	}
}
