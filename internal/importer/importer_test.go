package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The testdata files without the bad- prefix were written by hyperfine
// 1.15.0 on this project's machines (the commands are in each file),
// except v1.20-handmade.json, written by hand in the shape of hyperfine
// 1.20's BenchmarkResult (memory_usage_byte, a null exit code for a run
// killed by a signal). The bad- files are hand-made refusals.

func read(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustImport(t *testing.T, name string, opt Options) *Result {
	t.Helper()
	res, err := Import("hyperfine", name, read(t, name), opt)
	if err != nil {
		t.Fatalf("import %s: %v", name, err)
	}
	return res
}

// parts splits an imported run into its run record, samples and end.
func parts(t *testing.T, res *Result) (*ndjson.Run, []*ndjson.Sample, *ndjson.End) {
	t.Helper()
	n := len(res.Records)
	run, ok1 := res.Records[0].(*ndjson.Run)
	end, ok2 := res.Records[n-1].(*ndjson.End)
	if !ok1 || !ok2 {
		t.Fatalf("records are %T ... %T, want a run first and an end last", res.Records[0], res.Records[n-1])
	}
	var samples []*ndjson.Sample
	for _, r := range res.Records[1 : n-1] {
		s, ok := r.(*ndjson.Sample)
		if !ok {
			t.Fatalf("a %T between run and end", r)
		}
		samples = append(samples, s)
	}
	return run, samples, end
}

// hyperfineTimes reads every result's times from a file independently of
// the importer.
func hyperfineTimes(t *testing.T, name string) (commands []string, times [][]float64) {
	t.Helper()
	var doc struct {
		Results []struct {
			Command string    `json:"command"`
			Times   []float64 `json:"times"`
		} `json:"results"`
	}
	if err := json.Unmarshal(read(t, name), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Results {
		commands, times = append(commands, r.Command), append(times, r.Times)
	}
	return commands, times
}

// TestSamplesFollowTheFile: one sample per recorded run, in hyperfine's
// order, each one run of its command timed in nanoseconds.
func TestSamplesFollowTheFile(t *testing.T) {
	for _, name := range []string{"two.json", "params.json", "uneven.json", "named.json", "single.json", "failure-noshell.json"} {
		run, samples, end := parts(t, mustImport(t, name, Options{}))
		commands, times := hyperfineTimes(t, name)
		seq := 0
		for c, ts := range times {
			if run.Cases[c].Name != commands[c] || run.Cases[c].Command != commands[c] || run.Cases[c].Index != c {
				t.Errorf("%s: case %d is %+v, want %q", name, c, run.Cases[c], commands[c])
			}
			for u, sec := range ts {
				s := samples[seq]
				want := int64(math.Round(sec * 1e9))
				if s.Case != c || s.Unit != u || s.Pos != 0 || s.Seq != seq || s.Iter != 1 || s.WallNS != want || s.OpNS != float64(want) {
					t.Fatalf("%s: sample %d = %+v, want case %d unit %d wall %d ns", name, seq, *s, c, u, want)
				}
				seq++
			}
			if end.Samples[c] != len(ts) {
				t.Errorf("%s: end.samples[%d] = %d, want %d", name, c, end.Samples[c], len(ts))
			}
		}
		if len(samples) != seq {
			t.Errorf("%s: %d samples, want %d", name, len(samples), seq)
		}
	}
}

// TestRunRecord: what the run record says of a hyperfine file.
func TestRunRecord(t *testing.T) {
	res := mustImport(t, "two.json", Options{ToolVersion: "1.2.3", Started: "2026-12-01T17:25:00Z"})
	run, _, end := parts(t, res)
	switch {
	case run.Tool != Tool || run.ToolVersion != "1.2.3" || run.Source != "hyperfine" || run.Started != "2026-12-01T17:25:00Z":
		t.Errorf("identity: tool %q %q, source %q, started %q", run.Tool, run.ToolVersion, run.Source, run.Started)
	case run.Mode != "exec" || run.Design != ndjson.DesignSequential || run.Batching != "shared-iterations":
		t.Errorf("schedule: mode %q design %q batching %q", run.Mode, run.Design, run.Batching)
	case run.Config.Samples != 10 || run.Config.MaxIterations != 1 || run.Config.IgnoreFailure || !slices.Equal(run.Config.Metrics, []string{"wall"}):
		t.Errorf("config: %+v", run.Config)
	case run.Host != UnknownHost || run.Host.CPUs != 0:
		t.Errorf("host: %+v, want every field unknown", run.Host)
	case run.Clock != ndjson.Clock{Backend: "hyperfine (unknown)"}:
		t.Errorf("clock: %+v", run.Clock)
	case len(run.Axes) != 1 || run.Axes[0].Name != "wall" || run.Axes[0].Status != "collected":
		t.Errorf("axes: %+v", run.Axes)
	case run.Timer.KindOf() != ndjson.TimerWall || !strings.Contains(run.Timer.Note, "spawning time of an empty shell"):
		t.Errorf("timer: %+v", run.Timer)
	case run.Tags != nil || len(res.Warnings) != 0:
		t.Errorf("tags %v, warnings %q", run.Tags, res.Warnings)
	}
	_, times := hyperfineTimes(t, "two.json")
	var sum int64
	for _, ts := range times {
		for _, s := range ts {
			sum += int64(math.Round(s * 1e9))
		}
	}
	if end.RunID != run.RunID || end.Reason != ndjson.EndCompleted || end.Units != 10 || end.SamplingNS != sum || end.ElapsedNS != sum {
		t.Errorf("end: %+v, want completed, 10 units, sampling %d ns", *end, sum)
	}
}

// TestParameters: hyperfine's parameter values become the cases' params.
func TestParameters(t *testing.T) {
	run, _, _ := parts(t, mustImport(t, "params.json", Options{}))
	for i, c := range run.Cases {
		want := map[string]string{"n": string(rune('1' + i))}
		if c.Name != "sleep 0.0"+want["n"] || len(c.Params) != 1 || c.Params["n"] != want["n"] {
			t.Errorf("case %d: %+v, want params %v", i, c, want)
		}
	}
	run, _, _ = parts(t, mustImport(t, "two.json", Options{}))
	if run.Cases[0].Params != nil {
		t.Errorf("a file without parameters gave params %v", run.Cases[0].Params)
	}
}

// TestFailedRuns: a non-zero exit or a signal (null) keeps the sample,
// sets ignore_failure and says so; zero times are kept and explained.
func TestFailedRuns(t *testing.T) {
	res := mustImport(t, "failure-noshell.json", Options{})
	run, _, _ := parts(t, res)
	if !run.Config.IgnoreFailure || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `5 of 5 runs of "false" exited non-zero`) {
		t.Errorf("ignore_failure %v, warnings %q", run.Config.IgnoreFailure, res.Warnings)
	}
	res = mustImport(t, "v1.20-handmade.json", Options{})
	run, samples, _ := parts(t, res)
	if !run.Config.IgnoreFailure || len(samples) != 3 || !strings.Contains(res.Warnings[0], "1 of 3 runs") {
		t.Errorf("a null exit code: ignore_failure %v, %d samples, warnings %q", run.Config.IgnoreFailure, len(samples), res.Warnings)
	}
	if run.Cases[0].Params["size"] != "3" {
		t.Errorf("params %v", run.Cases[0].Params)
	}
	res = mustImport(t, "failure-shell.json", Options{})
	if len(res.Warnings) != 2 || !strings.Contains(res.Warnings[1], `of 3 times of "false" are 0: the run took less than the shell-spawning time`) {
		t.Errorf("zero times: warnings %q", res.Warnings)
	}
}

// TestUnevenRuns: hyperfine chose each command's run count; the end
// record counts complete units as the smallest, and a warning says the
// analysis compares on those.
func TestUnevenRuns(t *testing.T) {
	res := mustImport(t, "uneven.json", Options{})
	run, _, end := parts(t, res)
	if run.Config.Samples != 20 || end.Units != 14 || !slices.Equal(end.Samples, []int{14, 20}) {
		t.Errorf("samples %d, end units %d samples %v", run.Config.Samples, end.Units, end.Samples)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.HasSuffix(w, "the commands ran [14 20] times: fb-analyze compares the cases of a sequential run on the first 14 runs of each")
	}) {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestNamesTagsHost: the options fill what the file lacks.
func TestNamesTagsHost(t *testing.T) {
	host := ndjson.Host{OS: "linux", Kernel: "6.1", Arch: "amd64", CPUModel: "EPYC", CPUs: 2, Governor: "unavailable", GoVersion: "go1.26", Hostname: "vm"}
	tags := map[string]string{"rev": "abc"}
	res := mustImport(t, "two.json", Options{Names: []string{"old"}, Tags: tags, Host: &host})
	run, _, _ := parts(t, res)
	if run.Cases[0].Name != "old" || run.Cases[0].Command != "sleep 0.01" || run.Cases[1].Name != "sleep 0.02" {
		t.Errorf("cases %+v", run.Cases)
	}
	if run.Host != host || run.Tags["rev"] != "abc" {
		t.Errorf("host %+v tags %v", run.Host, run.Tags)
	}
	res = mustImport(t, "two.json", Options{Names: []string{"same", "same"}})
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `cases 0 and 1 are both named "same"`) {
		t.Errorf("duplicate names: warnings %q", res.Warnings)
	}
	_, err := Import("hyperfine", "two.json", read(t, "two.json"), Options{Names: []string{"a", "b", "c"}})
	var oe *OptionError
	if !errors.As(err, &oe) {
		t.Errorf("three names for two commands: %v, want an OptionError", err)
	}
}

// TestRunIDNamesTheMeasurement: the same file imported the same way has
// the same id whatever its start time; other cases, tags or host do not.
func TestRunIDNamesTheMeasurement(t *testing.T) {
	id := func(name string, opt Options) string {
		run, _, _ := parts(t, mustImport(t, name, opt))
		return run.RunID
	}
	base := id("two.json", Options{})
	if id("two.json", Options{Started: "2020-01-01T00:00:00Z", ToolVersion: "9"}) != base {
		t.Error("the start time or flybench's version changed the run id")
	}
	for _, other := range []string{id("two.json", Options{Tags: map[string]string{"a": "b"}}),
		id("two.json", Options{Names: []string{"x"}}), id("named.json", Options{})} {
		if other == base {
			t.Errorf("different imports share the id %s", base)
		}
	}
}

// TestRefusals: every hand-made bad file is refused at its line.
func TestRefusals(t *testing.T) {
	tests := []struct {
		file string
		line int
		want string
	}{
		{"bad-not-json.json", 1, "not JSON: invalid character 'm'"},
		{"bad-empty.json", 0, "the file is empty"},
		{"bad-truncated.json", 9, "not JSON: unexpected end of JSON input"},
		{"bad-two-documents.json", 21, "after top-level value"},
		{"bad-array.json", 1, "the document is a JSON array"},
		{"bad-no-results.json", 1, `no "results" array`},
		{"bad-empty-results.json", 2, `"results" is empty`},
		{"bad-no-command.json", 3, `results[0] has no "command"`},
		{"bad-no-times.json", 3, `results[0] has no "times"`},
		{"bad-empty-times.json", 5, "results[0].times is empty"},
		{"bad-negative.json", 7, "results[0].times[1] is -0.5 s"},
		{"bad-null-time.json", 6, "results[0].times[0] is null"},
		{"bad-string-time.json", 6, "results.times holds a JSON string, want a number of seconds"},
		{"bad-huge.json", 6, "results.times holds the number 1e999, out of range"},
		{"bad-exit-codes.json", 9, "results[0] has 1 exit codes for 2 times"},
		{"bad-memory.json", 9, "results[0].memory_usage_byte has 1 values for 2 times"},
	}
	for _, tt := range tests {
		res, err := Import("hyperfine", tt.file, read(t, tt.file), Options{})
		var ie *InputError
		if !errors.As(err, &ie) || res != nil {
			t.Errorf("%s: %v, %v; want an InputError and no result", tt.file, res, err)
			continue
		}
		if ie.File != tt.file || ie.Line != tt.line || !strings.Contains(ie.Msg, tt.want) {
			t.Errorf("%s: %q, want line %d and %q", tt.file, err, tt.line, tt.want)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	_, err := Import("criterion", "x", []byte("{}"), Options{})
	var fe *FormatError
	if !errors.As(err, &fe) || err.Error() != `unknown format "criterion": use hyperfine, gobench, gbench, pytest-benchmark` {
		t.Errorf("%v, want a FormatError", err)
	}
}

func TestLineAt(t *testing.T) {
	data := []byte("{\n \"a\": [1,\n  {\"b\": [\n   true, null]}],\n \"c\": 2\n}")
	for _, tt := range []struct {
		path []any
		want int
	}{
		{nil, 1}, {[]any{"a"}, 2}, {[]any{"a", 1}, 3}, {[]any{"a", 1, "b", 1}, 4}, {[]any{"c"}, 5},
		{[]any{"d"}, 0}, {[]any{"a", 2}, 0}, {[]any{"c", 0}, 0},
	} {
		if got := lineAt(data, tt.path...); got != tt.want {
			t.Errorf("lineAt %v = %d, want %d", tt.path, got, tt.want)
		}
	}
}

// TestAnalyzable: the stream an import writes is one fb-analyze reads,
// and it compares the cases as a sequential run.
func TestAnalyzable(t *testing.T) {
	stream := encode(t, mustImport(t, "two.json", Options{}).Records)
	var out bytes.Buffer
	opt := analyze.DefaultOptions
	opt.Analyzer = "test"
	if err := analyze.Stream(ndjson.NewReader(bytes.NewReader(stream), "in"), ndjson.NewWriter(&out), opt); err != nil {
		t.Fatal(err)
	}
	r := ndjson.NewReader(&out, "out")
	var cmp *ndjson.Comparison
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.Type == ndjson.TypeComparison {
			cmp = &ndjson.Comparison{}
			if err := r.Decode(l, cmp); err != nil {
				t.Fatal(err)
			}
		}
	}
	if cmp == nil || cmp.Design != ndjson.DesignSequential || cmp.Pairs != 10 || cmp.Verdict != ndjson.VerdictReferenceFaster {
		t.Errorf("comparison %+v, want sleep 0.01 faster on 10 sequential samples each", cmp)
	}
}

// encode writes records as a stream.
func encode(t testing.TB, recs []ndjson.Record) []byte {
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// TestMemoryUsageIsAnUpperBound: hyperfine 1.20's memory_usage_byte is the
// largest peak of every child reaped so far, so each run's rss_peak is
// unattributable with its bound in the reason, never a value, and the run
// record says why; fb-analyze reads the stream.
func TestMemoryUsageIsAnUpperBound(t *testing.T) {
	res := mustImport(t, "v1.20-handmade.json", Options{})
	run, samples, _ := parts(t, res)
	if len(run.Axes) != 2 || run.Axes[1].Name != "rss_peak" || run.Axes[1].Status != "unattributable" ||
		run.Axes[1].Method != "hyperfine memory_usage_byte" || !strings.Contains(run.Axes[1].Reason, "RUSAGE_CHILDREN") {
		t.Fatalf("run axes %+v, want rss_peak unattributable with hyperfine's method", run.Axes)
	}
	if !slices.Contains(run.Config.Metrics, "rss_peak") {
		t.Errorf("config metrics %v, want rss_peak", run.Config.Metrics)
	}
	want := []string{"at most 3.0 MiB", "at most 3.0 MiB", "at most 4.0 MiB"}
	for i, s := range samples {
		v := s.Axes["rss_peak"]
		if v.S != "unattributable" || v.V != nil || !strings.Contains(v.R, "an upper bound only: the run's peak is "+want[i]) {
			t.Errorf("sample %d rss_peak %+v, want %s and no value", i, v, want[i])
		}
	}
	stream := encode(t, res.Records)
	var out bytes.Buffer
	opt := analyze.DefaultOptions
	opt.Analyzer = "test"
	if err := analyze.Stream(ndjson.NewReader(bytes.NewReader(stream), "in"), ndjson.NewWriter(&out), opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"name":"rss_peak","unit":"bytes","status":"unattributable"`) {
		t.Errorf("analysis of the import:\n%s\nwant rss_peak unattributable in the summary", out.String())
	}
}

// TestNoMemoryUsageNoAxis: a file without memory_usage_byte (hyperfine
// before 1.20) imports wall time alone.
func TestNoMemoryUsageNoAxis(t *testing.T) {
	run, samples, _ := parts(t, mustImport(t, "two.json", Options{}))
	if len(run.Axes) != 1 || samples[0].Axes != nil {
		t.Errorf("axes %+v, sample axes %v; want wall time alone", run.Axes, samples[0].Axes)
	}
}
