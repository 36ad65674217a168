package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The suite fixture is three raw runs analysed together by fb-analyze's
// own code: two A/B runs of one change on two benchmarks, and a run of a
// reference against three variants with a page-fault axis, whose family
// of three moves its time intervals to 98.33% and leaves the axis at 95%.

func suiteRawRun(id string, units int, medians []float64, faults bool, names ...string) []byte {
	design := ndjson.DesignPaired
	if len(names) > 2 {
		design = ndjson.DesignRounds
	}
	run := testRun(id, "fb-pair", design, "equal-time", names...)
	iters := make([]int64, len(names))
	for i := range iters {
		iters[i] = 4
	}
	if faults {
		run.Axes = []ndjson.AxisInfo{
			{Name: "wall", Unit: "ns/op", Family: "time", Scope: "batch_wall_clock", Attribution: "exact_window", Direction: "lower", Normalization: "per_operation", Status: "collected"},
			{Name: "minor_faults", Unit: "faults/op", Family: "memory", Scope: "operation_process", Attribution: "exact_window", Direction: "lower", Normalization: "per_operation", Status: "collected"},
		}
	}
	recs := []ndjson.Record{run}
	for _, rec := range testSamples(uint64(len(id)+units), units, iters, medians) {
		if s := rec.(*ndjson.Sample); faults {
			s.Axes = map[string]ndjson.AxisValue{"minor_faults": ndjson.Collected(100 + float64(s.Case) + float64(s.Unit%3))}
		}
		recs = append(recs, rec)
	}
	samples := make([]int, len(names))
	for i := range samples {
		samples[i] = units
	}
	recs = append(recs, &ndjson.End{RunID: id, Reason: ndjson.EndCompleted, Units: units, Samples: samples})
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			panic(err)
		}
	}
	return buf.Bytes()
}

func suiteRawRuns() [][]byte {
	return [][]byte{
		suiteRawRun("a4e1c0de-0000-4000-8000-00000000000a", 30, []float64{2_150_000, 2_050_000}, false, "parse-old", "parse-new"),
		suiteRawRun("b5f2d1ef-0000-4000-8000-00000000000b", 30, []float64{480_000, 462_000}, false, "render-old", "render-new"),
		suiteRawRun("c6a3e2f0-0000-4000-8000-00000000000c", 24, []float64{1_000_000, 960_000, 1_004_000, 1_080_000}, true, "base", "v1", "v2", "v3"),
	}
}

// analyzedSuite is the raw runs analysed as fb-analyze FILE... would.
func analyzedSuite(t *testing.T, opt analyze.Options, inputs ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	opt.Analyzer, opt.Suite = "fb-analyze 0.1.0", analyze.NewSuiteBuilder()
	for _, in := range inputs {
		if err := analyze.Stream(ndjson.NewReader(bytes.NewReader(in), "in"), w, opt); err != nil {
			t.Fatal(err)
		}
	}
	if err := analyze.WriteSuite(w, opt.Suite, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSuiteGolden(t *testing.T) {
	runs := loadFixture(t, analyzedSuite(t, flaggedOptions, suiteRawRuns()...), "suite.ndjson")
	if len(runs) != 3 || len(model.Suites(runs)) != 1 {
		t.Fatalf("%d runs, %d suites: want 3 and 1", len(runs), len(model.Suites(runs)))
	}
	for _, format := range []string{"console", "markdown", "json", "csv", "long-csv"} {
		t.Run(format, func(t *testing.T) {
			golden(t, format+"-suite.golden", render(t, runs, Options{Format: format}))
		})
	}
}

func TestFamilyIsReported(t *testing.T) {
	runs := loadFixture(t, analyzedSuite(t, flaggedOptions, suiteRawRuns()...), "suite.ndjson")
	console := string(render(t, runs, Options{}))
	for _, want := range []string{
		"family     | 3 comparisons (time), Bonferroni, 95% family confidence → each interval at 98.33%; axes at 95% per comparison, outside the family",
		"98.33% CI", "== suite: geometric mean of 5 benchmarks", "parse-old vs parse-new",
	} {
		if !strings.Contains(console, want) {
			t.Errorf("console lacks %q:\n%s", want, console)
		}
	}
	if n := strings.Count(console, "family     |"); n != 1 {
		t.Errorf("%d family rows: a lone comparison needs none, the rounds run one", n)
	}
	details := string(render(t, runs[2:], Options{Details: true}))
	if !strings.Contains(details, "CI (time 98.33%; axes 95%)") {
		t.Errorf("the axis table does not name both levels:\n%s", details)
	}
	md := string(render(t, runs, Options{Format: "markdown"}))
	if !strings.Contains(md, "_Family: 3 comparisons (time), Bonferroni") || !strings.Contains(md, "### suite: geometric mean of 5 benchmarks") {
		t.Errorf("markdown lacks the family or the suite:\n%s", md)
	}
}

func TestExploratoryIsLabelled(t *testing.T) {
	opt := flaggedOptions
	opt.Family.Multiplicity = analyze.MultiplicityNone
	runs := loadFixture(t, analyzedSuite(t, opt, suiteRawRuns()[2]), "none.ndjson")
	label := "exploratory (no multiplicity correction across 3 comparisons): each interval at 95%"
	for _, format := range []string{"console", "markdown"} {
		if out := string(render(t, runs, Options{Format: format})); !strings.Contains(out, label) {
			t.Errorf("%s lacks %q:\n%s", format, label, out)
		}
	}
	js := string(render(t, runs, Options{Format: "json"}))
	if !strings.Contains(js, `"exploratory": true`) {
		t.Errorf("json lacks the exploratory family:\n%s", js)
	}
	csv := string(render(t, runs, Options{Format: "csv"}))
	if !strings.Contains(csv, ",none,time,3,85.7375,95,") && !strings.Contains(csv, ",none,time,3,85,95,") {
		t.Errorf("csv lacks the family columns:\n%s", csv)
	}
}
