package gotest

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The testdata files are go1.26 test binaries' output (stdout and stderr
// together, -test.benchtime=1000x), except logs.txt and suffix.txt, which
// are written by hand.
func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseResults(t *testing.T) {
	cases := []struct {
		file, bench string
		cpu         int
		name        string
		ns          float64
		metrics     map[string]float64
	}{
		{"plain", "BenchmarkSum", 0, "BenchmarkSum-2", 0.6910, nil},
		{"loop", "BenchmarkLoop", 0, "BenchmarkLoop-2", 60.23, nil},
		{"metrics", "BenchmarkAlloc", 0, "BenchmarkAlloc-2", 83.82, map[string]float64{
			"hit-ratio": 0.5, "p95-ns": 12346, "widgets/op": 3, "B/op": 64, "allocs/op": 1}},
		{"bytes", "BenchmarkBytes", 0, "BenchmarkBytes-2", 93.03, map[string]float64{"MB/s": 11007.56, "B/op": 16, "allocs/op": 1}},
		{"sub", "BenchmarkSub/size=10", 0, "BenchmarkSub/size=10-2", 59.96, nil},
		{"sub", "BenchmarkSub/size=100", 0, "BenchmarkSub/size=100-2", 176.2, nil},
		{"sub", "BenchmarkSub/a_b+c", 0, "BenchmarkSub/a_b+c-2", 0.6820, nil},
		{"sub", "BenchmarkSub/a_b+c#01", 0, "BenchmarkSub/a_b+c#01-2", 0.4410, nil},
		{"sub_quoted", "BenchmarkSub/a_b+c", 0, "BenchmarkSub/a_b+c-2", 1.352, nil},
		{"cpu1", "BenchmarkSum", 0, "BenchmarkSum", 0.5310, nil},
		{"cpu1", "BenchmarkSum", 1, "BenchmarkSum", 0.5310, nil},
		{"cpu_list", "BenchmarkSum", 1, "BenchmarkSum", 0.3920, nil},
		{"cpu_list", "BenchmarkSum", 4, "BenchmarkSum-4", 1.402, nil},
		{"suffix", "BenchmarkPool/workers", 0, "BenchmarkPool/workers-16", 100, nil},
		{"suffix", "BenchmarkPool/workers-8", 0, "BenchmarkPool/workers-8-16", 200, nil},
		{"suffix", "BenchmarkPool/workers-8", 16, "BenchmarkPool/workers-8-16", 200, nil},
		{"noisy", "BenchmarkNoisy", 0, "BenchmarkNoisy-2", 120.6, nil},
		{"logs", "BenchmarkSum", 0, "BenchmarkSum-8", 123.4, map[string]float64{"B/op": 16, "allocs/op": 1}},
		{"logs", "BenchmarkSumAll", 8, "BenchmarkSumAll-8", 50, nil},
		{"two", "BenchmarkSum", 0, "BenchmarkSum-2", 0.7410, map[string]float64{"B/op": 0, "allocs/op": 0}},
		{"two", "BenchmarkLoop", 0, "BenchmarkLoop-2", 31.86, map[string]float64{"B/op": 8, "allocs/op": 1}},
	}
	for _, c := range cases {
		s := Spec{Binary: "/b/x.test", Bench: c.bench, CPU: c.cpu}
		r, err := Parse(fixture(t, c.file), s, 1000)
		if err != nil {
			t.Errorf("%s %s cpu=%d: %v", c.file, c.bench, c.cpu, err)
			continue
		}
		if c.metrics == nil {
			c.metrics = map[string]float64{}
		}
		if r.Name != c.name || r.Iterations != 1000 || r.NsPerOp != c.ns || !maps.Equal(r.Metrics, c.metrics) {
			t.Errorf("%s %s cpu=%d: got %+v, want %s 1000 %v ns/op %v", c.file, c.bench, c.cpu, r, c.name, c.ns, c.metrics)
		}
		if got := r.ElapsedNS(); got != c.ns*1000 {
			t.Errorf("%s %s: ElapsedNS %v", c.file, c.bench, got)
		}
	}
}

func TestParseConfig(t *testing.T) {
	r, err := Parse(fixture(t, "logs"), Spec{Binary: "x.test", Bench: "BenchmarkSum"}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"goos": "linux", "goarch": "amd64", "pkg": "example.com/gtx", "cpu": "Test CPU @ 3.00GHz"}
	if !maps.Equal(r.Config, want) {
		t.Fatalf("config %v", r.Config)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		file, bench string
		cpu         int
		n           int64
		want        []string // substrings of the message, in order
	}{
		{"fail", "BenchmarkFail", 0, 1000, []string{"benchmark failed", "--- FAIL: BenchmarkFail", "x_test.go:53: about to fail", "x_test.go:54: boom: 42"}},
		{"late_fail", "BenchmarkLateFail", 0, 1000, []string{"benchmark failed", "--- FAIL: BenchmarkLateFail-2", "too many: 1000"}},
		{"sub_fail", "BenchmarkSubFail/inner", 0, 1000, []string{"benchmark failed", "--- FAIL: BenchmarkSubFail/inner", "inner broke"}},
		{"panic", "BenchmarkPanic", 0, 1000, []string{"panicked", "panic: kaboom", "BenchmarkPanic"}},
		{"empty", "BenchmarkNope", 0, 1000, []string{`BenchmarkNope in "/b/x.test": no such benchmark, or it was skipped`, "-test.list='^Benchmark'"}},
		{"empty", "BenchmarkSub/size=10-2", 0, 1000, []string{"no such benchmark", "-test.bench='^BenchmarkSub$'", "if -2 is the GOMAXPROCS suffix go test printed, drop it"}},
		{"sub", "BenchmarkSub/size=1000", 0, 1000, []string{"no such benchmark", "-test.bench='^BenchmarkSub$' -test.benchtime=1x"}},
		{"sub", "BenchmarkSub", 0, 1000, []string{"has sub-benchmarks", "BenchmarkSub/size=10\n", "BenchmarkSub/a_b+c#01", "write /b/x.test:BenchmarkSub/size=10"}},
		{"plain", "BenchmarkSum", 0, 500, []string{"ran 1000 iterations, asked for 500 with -test.benchtime=500x"}},
		{"plain", "BenchmarkSum", 1, 1000, []string{"no such benchmark"}},
		{"cpu1", "BenchmarkSum", 4, 1000, []string{"no such benchmark"}},
		{"cpu_list", "BenchmarkSum", 0, 1000, []string{"2 result lines, want one", "BenchmarkSum     \t", "BenchmarkSum-4"}},
		{"hide_ns", "BenchmarkHideNs", 0, 1000, []string{"no ns/op", `b.ReportMetric(0, "ns/op")`}},
		{"suffix", "BenchmarkPool/workers-1", 0, 1000, []string{"no such benchmark"}},
	}
	for _, c := range cases {
		s := Spec{Binary: "/b/x.test", Bench: c.bench, CPU: c.cpu}
		_, err := Parse(fixture(t, c.file), s, c.n)
		var be *BenchError
		if !errors.As(err, &be) {
			t.Errorf("%s %s: %v, want a *BenchError", c.file, c.bench, err)
			continue
		}
		msg := err.Error()
		rest := msg
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s %s: %q lacks %q (in order)", c.file, c.bench, msg, w)
				break
			}
			rest = rest[i+len(w):]
		}
	}
}

func TestParseNoResultAfterName(t *testing.T) {
	out := "BenchmarkX-4   \tsome output\nmore output\nPASS\n"
	_, err := Parse([]byte(out), Spec{Binary: "x.test", Bench: "BenchmarkX"}, 10)
	if err == nil || !strings.Contains(err.Error(), "no result after its name") {
		t.Fatalf("%v", err)
	}
	_, err = Parse([]byte(out), Spec{Binary: "x.test", Bench: "BenchmarkX"}, 0)
	if err == nil || !strings.Contains(err.Error(), "batch size 0") {
		t.Fatalf("%v", err)
	}
}

func TestParseRefusesMalformedLines(t *testing.T) {
	for _, out := range []string{
		"BenchmarkX-4 \t 10\t5 ns/op\t5 ns/op\n",        // ns/op twice
		"BenchmarkX-4 \t 10\t5 ns/op\t1 B/op\t2 B/op\n", // a unit twice
		"BenchmarkX-4 \t 10\tfive ns/op\n",              // not a number
		"BenchmarkX-4 \t 10\t5ns/op\n",                  // no unit
		"BenchmarkX-4 \t 10\t0 ns/op\n",                 // a zero timer (go test hides it; a forgery does not)
		"BenchmarkX-4 \t 10\t-3 ns/op\n",
		"BenchmarkX-4 \t 10\tNaN ns/op\n",
		"BenchmarkX-4 \t 99999999999999999999\t5 ns/op\n",
	} {
		if r, err := Parse([]byte(out), Spec{Binary: "x.test", Bench: "BenchmarkX"}, 10); err == nil {
			t.Errorf("%q: parsed as %+v", out, r)
		}
	}
}

func TestParseCRLF(t *testing.T) {
	out := "goos: windows\r\nBenchmarkX-4 \t      10\t     5.000 ns/op\t  2.000 things/op\r\nPASS\r\n"
	r, err := Parse([]byte(out), Spec{Binary: "x.test", Bench: "BenchmarkX"}, 10)
	if err != nil || r.NsPerOp != 5 || r.Metrics["things/op"] != 2 || r.Config["goos"] != "windows" {
		t.Fatalf("%+v %v", r, err)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "BenchmarkSum", int64(1000))
	}
	f.Fuzz(func(t *testing.T, out []byte, bench string, n int64) {
		r, err := Parse(out, Spec{Binary: "x.test", Bench: bench}, n)
		if err != nil {
			return
		}
		if r.Iterations != n || !(r.NsPerOp > 0) || r.Metrics == nil {
			t.Fatalf("accepted %+v for n=%d", r, n)
		}
		if _, err := Values(Axes(r), r); err != nil {
			t.Fatalf("values of its own axes: %v", err)
		}
	})
}
