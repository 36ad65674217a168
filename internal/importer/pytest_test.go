package importer

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pytest-raw.json was written by Debian's python3-pytest-benchmark 3.2.2
// running testdata/pytest-bench.py (pytest --benchmark-json, which that
// version writes with every round's time); pytest-summary-handmade.json
// is the same file with each "stats.data" removed, the shape a file
// without the rounds has.

// TestPytestRounds: each test a case, each round a sample of its
// iterations at the round's time per call.
func TestPytestRounds(t *testing.T) {
	res := mustImportAs(t, "pytest-benchmark", "pytest-raw.json")
	run, samples, end := parts(t, res)
	if len(run.Cases) != 3 || run.Cases[0].Name != "test_bench.py::test_join[10]" || run.Cases[0].Params["n"] != "10" {
		t.Fatalf("cases %+v", run.Cases)
	}
	switch {
	case run.Source != "pytest-benchmark" || run.Timer.Source != "pytest-benchmark perf_counter":
		t.Errorf("source %q timer %+v", run.Source, run.Timer)
	case run.Host.OS != "linux" || run.Host.Arch != "amd64" || run.Host.CPUModel != "AMD EPYC" || run.Host.Hostname != "vm":
		t.Errorf("host %+v", run.Host)
	case run.Tags["python"] != "CPython 3.11.2" || run.Started != "2026-12-03T12:44:31Z":
		t.Errorf("tags %v started %q", run.Tags, run.Started)
	case len(samples) != 29+23+7 || end.Samples[2] != 7 || len(res.Warnings) != 1:
		t.Errorf("%d samples, end %+v, warnings %q", len(samples), end, res.Warnings)
	}
	last := samples[len(samples)-1] // test_sum: iterations 20, data[6]
	if last.Iter != 20 || last.Case != 2 || math.Abs(last.OpNS-1e9*pyLastData(t)) > 1e-9 {
		t.Errorf("last sample %+v", *last)
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}

// pyLastData is the last round of the last benchmark in pytest-raw.json,
// read without the importer.
func pyLastData(t *testing.T) float64 {
	s := string(read(t, "pytest-raw.json"))
	i := strings.LastIndex(s, `"data": [`)
	j := strings.Index(s[i:], "]")
	fields := strings.Split(s[i+len(`"data": [`):i+j], ",")
	var v float64
	if _, err := fmt.Sscan(strings.TrimSpace(fields[len(fields)-1]), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPytestSummary: without the rounds, each case is one sample, its
// mean over all calls, and a warning says so.
func TestPytestSummary(t *testing.T) {
	res := mustImportAs(t, "pytest-benchmark", "pytest-summary-handmade.json")
	_, samples, _ := parts(t, res)
	if len(samples) != 3 || samples[2].Iter != 7*20 {
		t.Errorf("samples %d, test_sum's iterations %d", len(samples), samples[2].Iter)
	}
	if !containsWarning(res.Warnings, "3 of 3 benchmarks have no stats.data") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

func TestPytestRefusals(t *testing.T) {
	one := func(stats string) string {
		return "{\"benchmarks\": [\n {\"name\": \"test_x\",\n  \"stats\": {\n" + stats + "}}]}"
	}
	tests := []struct {
		name, data string
		line       int
		want       string
	}{
		{"empty", " ", 0, "the file is empty"},
		{"no-benchmarks", `{"version": "4.0.0"}`, 1, `no "benchmarks" array`},
		{"no-runs", `{"benchmarks": []}`, 1, `"benchmarks" is empty`},
		{"no-stats", "{\"benchmarks\": [\n {\"name\": \"t\"}]}", 2, `benchmarks[0] has no "stats"`},
		{"no-iterations", one(`"rounds": 2, "data": [1, 2]`), 3, `no "iterations"`},
		{"nothing", one(`"rounds": 2, "iterations": 1`), 3, `neither "data" nor "mean"`},
		{"null-round", one(`"rounds": 2, "iterations": 1,` + "\n" + `"data": [1, null]`), 5, "benchmarks[0].stats.data[1] is null"},
		{"negative", one(`"rounds": 2, "iterations": 1,` + "\n" + `"data": [1, -2]`), 5, "benchmarks[0].stats.data[1] is -2 s"},
		{"empty-data", one(`"rounds": 2, "iterations": 1,` + "\n" + `"data": []`), 5, "stats.data is empty"},
	}
	for _, tc := range tests {
		res, err := Import("pytest-benchmark", tc.name+".json", []byte(tc.data), Options{})
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

// TestPytestFromPlugin runs testdata/pytest-bench.py under the
// pytest-benchmark installed now (make deps installs Debian's
// python3-pytest-benchmark as root) and imports the file it writes.
func TestPytestFromPlugin(t *testing.T) {
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import pytest_benchmark").Run() != nil {
		t.Skip("pytest-benchmark is not installed for " + py + ": make deps installs Debian's python3-pytest-benchmark as root")
	}
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/pytest-bench.py")
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "test_bench.py"), src, 0o644))
	out := filepath.Join(dir, "out.json")
	cmd := exec.Command(py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--benchmark-json="+out, "--benchmark-min-rounds=5", "--benchmark-max-time=0.0005", "test_bench.py")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pytest: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	must(t, err)
	res, err := Import("pytest-benchmark", "out.json", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	run, samples, _ := parts(t, res)
	if len(run.Cases) != 3 || len(samples) < 15 {
		t.Errorf("%d cases, %d samples", len(run.Cases), len(samples))
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}
