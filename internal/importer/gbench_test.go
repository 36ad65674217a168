package importer

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// gbench-reps.json and gbench-aggregates.json were written by
// testdata/gbench-bm.cc built against Debian's libbenchmark-dev 1.7.1
// (--benchmark_format=json --benchmark_repetitions=3, the second with
// --benchmark_report_aggregates_only=true).

// TestGbenchRepetitions: each benchmark a case, each repetition a sample
// of its iterations at real_time per iteration; cpu_time, the
// throughputs and user counters as axes; failed repetitions left out
// with a warning.
func TestGbenchRepetitions(t *testing.T) {
	res := mustImportAs(t, "gbench", "gbench-reps.json")
	run, samples, end := parts(t, res)
	if len(run.Cases) != 3 || run.Cases[0].Name != "BM_Fill/64" || run.Cases[2].Name != "BM_Concat" {
		t.Fatalf("cases %+v", run.Cases)
	}
	switch {
	case run.Source != "google-benchmark" || run.Mode != ndjson.ModeBatch || run.Timer.KindOf() != ndjson.TimerSelf:
		t.Errorf("run %+v timer %+v", run, run.Timer)
	case run.Host.Hostname != "vm" || run.Host.CPUs != 2 || run.Started != "2026-12-03T12:43:46Z":
		t.Errorf("host %+v started %q", run.Host, run.Started)
	case len(samples) != 9 || end.Units != 3:
		t.Errorf("%d samples, end %+v", len(samples), end)
	}
	// benchmarks[0]: iterations 104135, real_time 2.8921006379433997e+01 ns,
	// cpu_time 2.8169117011571522e+01, bytes_per_second 9.0879667933800831e+09, elems 64.
	s := samples[0]
	if s.Iter != 104135 || s.OpNS != 28.921006379433997 || s.WallNS != int64(math.Round(28.921006379433997*104135)) {
		t.Errorf("sample %+v", *s)
	}
	for axis, want := range map[string]float64{"bm_cpu_time": 28.169117011571522, "bytes_per_s": 9.0879667933800831e+09, "elems": 64} {
		if v := s.Axes[axis]; v.V == nil || *v.V != want {
			t.Errorf("%s = %+v, want %g", axis, v, want)
		}
	}
	if v := s.Axes["items_per_s"]; v.S != "probe_failed" {
		t.Errorf("items_per_s of BM_Fill: %+v, want probe_failed", v)
	}
	if !containsWarning(res.Warnings, `3 repetitions of "BM_Fails" stopped with an error (no input): not imported`) ||
		!containsWarning(res.Warnings, "debug build") {
		t.Errorf("warnings %q", res.Warnings)
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}

// TestGbenchAggregatesOnly: without repetitions in the file, each case is
// its mean, with a warning.
func TestGbenchAggregatesOnly(t *testing.T) {
	res := mustImportAs(t, "gbench", "gbench-aggregates.json")
	run, samples, _ := parts(t, res)
	if len(run.Cases) != 3 || len(samples) != 3 || samples[0].Iter != 1 {
		t.Errorf("cases %d samples %d", len(run.Cases), len(samples))
	}
	if !containsWarning(res.Warnings, "holds aggregates only (--benchmark_report_aggregates_only)") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestGbenchRefusals: bad files are refused at their line.
func TestGbenchRefusals(t *testing.T) {
	entry := func(fields string) string {
		return "{\n \"benchmarks\": [\n  {\n   \"name\": \"BM_x\",\n" + fields + "\n  }\n ]\n}\n"
	}
	tests := []struct {
		name, data string
		line       int
		want       string
	}{
		{"empty", "", 0, "the file is empty"},
		{"not-json", "BM_x 10 ns", 1, "not JSON"},
		{"array", "[]", 1, `the document is a JSON array, not an object with a "benchmarks" array`},
		{"no-benchmarks", `{"context": {}}`, 1, `no "benchmarks" array`},
		{"nothing-ran", `{"benchmarks": []}`, 1, "holds no benchmark that ran"},
		{"no-name", "{\"benchmarks\": [\n {\"iterations\": 1}]}", 2, `benchmarks[0] has no "name"`},
		{"no-time", entry(`   "iterations": 5`), 3, `benchmarks[0] has no "real_time"`},
		{"zero-iterations", entry(`   "iterations": 0, "real_time": 1`), 5, "benchmarks[0].iterations is 0"},
		{"negative", entry(`   "iterations": 2,` + "\n" + `   "real_time": -1`), 6, "benchmarks[0].real_time is -1"},
		{"unit", entry(`   "iterations": 2, "real_time": 1,` + "\n" + `   "time_unit": "fortnight"`), 6, `time_unit is "fortnight"`},
		{"string-time", entry(`   "iterations": 2,` + "\n" + `   "real_time": "1"`), 6, "benchmarks.real_time holds a JSON string, want a number"},
		{"run-type", entry(`   "iterations": 2, "real_time": 1,` + "\n" + `   "run_type": "other"`), 6, `run_type is "other"`},
		{"utf8", entry(`   "iterations": 2, "real_time": 1, "label": "` + "\xff" + `"`), 5, "invalid UTF-8"},
	}
	for _, tc := range tests {
		res, err := Import("gbench", tc.name+".json", []byte(tc.data), Options{})
		var ie *InputError
		if !errors.As(err, &ie) || res != nil {
			t.Errorf("%s: imported (%v); want an InputError", tc.name, err)
			continue
		}
		if ie.Line != tc.line || !strings.Contains(ie.Msg, tc.want) {
			t.Errorf("%s: %v\nwant line %d: %s", tc.name, err, tc.line, tc.want)
		}
	}
}

// TestGbenchFromLibrary builds testdata/gbench-bm.cc against the Google
// Benchmark library installed now (make deps installs Debian's
// libbenchmark-dev as root) and imports what it writes.
func TestGbenchFromLibrary(t *testing.T) {
	cxx, err := exec.LookPath("c++")
	if err != nil {
		t.Skip("no C++ compiler (c++): cannot build a Google Benchmark binary")
	}
	if _, err := os.Stat("/usr/include/benchmark/benchmark.h"); err != nil {
		t.Skip("Google Benchmark is not installed (/usr/include/benchmark/benchmark.h): make deps installs Debian's libbenchmark-dev as root")
	}
	bin := filepath.Join(t.TempDir(), "bm")
	if out, err := exec.Command(cxx, "-O2", "testdata/gbench-bm.cc", "-o", bin, "-lbenchmark", "-lpthread").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--benchmark_format=json", "--benchmark_repetitions=4", "--benchmark_min_time=0.001").Output()
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	res, err := Import("gbench", "bm.json", out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	run, samples, end := parts(t, res)
	if len(run.Cases) != 3 || len(samples) != 12 || end.Units != 4 {
		t.Errorf("%d cases, %d samples, end %+v", len(run.Cases), len(samples), end)
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}

func mustImportAs(t *testing.T, format, name string) *Result {
	t.Helper()
	res, err := Import(format, name, read(t, name), Options{})
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return res
}

func containsWarning(ws []string, part string) bool {
	for _, w := range ws {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}
