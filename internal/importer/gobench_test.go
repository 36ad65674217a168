package importer

import (
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// gobench-old.txt and gobench-new.txt were written by go test -bench .
// -benchtime 2000x -count 4 -benchmem on this project's machines (new.txt
// with -cpu 1,2) for the package in TestGobenchFromGoTest;
// gobench-configs-handmade.txt is one file of two configurations, by hand.

// goFiles reads testdata files as one gobench import.
func goFiles(t *testing.T, names ...string) []File {
	t.Helper()
	var files []File
	for _, n := range names {
		files = append(files, File{Name: n, Data: read(t, n)})
	}
	return files
}

// runs splits an import into its runs, each with its samples and end.
func runs(t *testing.T, res *Result) map[string]*goRunRecs {
	t.Helper()
	out := map[string]*goRunRecs{}
	var cur *goRunRecs
	for _, r := range res.Records {
		switch r := r.(type) {
		case *ndjson.Run:
			cur = &goRunRecs{run: r}
			out[r.Cases[0].Command] = cur
		case *ndjson.Sample:
			cur.samples = append(cur.samples, r)
		case *ndjson.End:
			cur.end = r
		}
	}
	return out
}

type goRunRecs struct {
	run     *ndjson.Run
	samples []*ndjson.Sample
	end     *ndjson.End
}

// TestGobenchFiles: each benchmark is a run, each file its case, each
// result line a sample of b.N iterations at Go's ns/op, B/op and
// allocs/op and ReportMetric units as the axes fb-pair --gotest records.
func TestGobenchFiles(t *testing.T) {
	res, err := ImportFiles("gobench", goFiles(t, "gobench-old.txt", "gobench-new.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs := runs(t, res)
	if len(rs) != 6 {
		t.Fatalf("%d runs, want 6 (3 benchmarks at -2 in both files, 3 at GOMAXPROCS 1 in new.txt)", len(rs))
	}
	r := rs["BenchmarkAlloc/size=256-2"]
	names := []string{r.run.Cases[0].Name, r.run.Cases[1].Name}
	if !slices.Equal(names, []string{"BenchmarkAlloc/size=256-2 gobench-old.txt", "BenchmarkAlloc/size=256-2 gobench-new.txt"}) {
		t.Errorf("cases %q", names)
	}
	switch {
	case r.run.Mode != ndjson.ModeGotest || r.run.Design != ndjson.DesignSequential || r.run.Source != "gobench" || r.run.Batching != "equal-time":
		t.Errorf("run %+v", r.run)
	case r.run.Timer.KindOf() != ndjson.TimerSelf || r.run.Timer.Source != "go-testing" || r.run.Axes[0].Name != "time":
		t.Errorf("timer %+v axes %+v", r.run.Timer, r.run.Axes)
	case r.run.Host.OS != "linux" || r.run.Host.Arch != "amd64" || r.run.Host.CPUModel != "AMD EPYC" || r.run.Host.Kernel != Unknown:
		t.Errorf("host %+v", r.run.Host)
	case r.run.Tags["pkg"] != "example.com/gb" || len(r.run.Tags) != 1:
		t.Errorf("tags %v", r.run.Tags)
	case len(r.samples) != 8 || !slices.Equal(r.end.Samples, []int{4, 4}):
		t.Errorf("%d samples, end %+v", len(r.samples), r.end)
	}
	// BenchmarkAlloc/size=256-2  2000  206.1 ns/op  256.0 bytes/op  256 B/op  1 allocs/op
	s := r.samples[0]
	if s.Iter != 2000 || s.OpNS != 206.1 || s.SelfNS == nil || math.Abs(*s.SelfNS-412200) > 1e-6 || s.WallNS != 412200 {
		t.Errorf("first sample %+v", *s)
	}
	for axis, want := range map[string]float64{"alloc_bytes": 256, "allocs": 1, "bytes": 256} {
		if v := s.Axes[axis]; v.V == nil || *v.V != want {
			t.Errorf("axis %s = %+v, want %g", axis, v, want)
		}
	}
	if one := rs["BenchmarkFormat"]; len(one.run.Cases) != 1 || one.run.Cases[0].Name != "BenchmarkFormat gobench-new.txt" {
		t.Errorf("a benchmark of one file: cases %+v", one.run.Cases)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.HasPrefix(w, "gobench-new.txt:5: BenchmarkFormat is in 1 of 2 files or configurations")
	}) {
		t.Errorf("warnings %q", res.Warnings)
	}
	// --name renames the files, and keeps the benchmark.
	res, err = ImportFiles("gobench", goFiles(t, "gobench-old.txt", "gobench-new.txt"), Options{Names: []string{"old", "new"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := runs(t, res)["BenchmarkFormat-2"].run.Cases; c[0].Name != "BenchmarkFormat-2 old" || c[1].Name != "BenchmarkFormat-2 new" {
		t.Errorf("named cases %+v", c)
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}

// TestGobenchConfigurations: in one file, each configuration is a case,
// named and parameterized by the keys that differ; a lone file's lone
// configuration gives cases named by the benchmark alone.
func TestGobenchConfigurations(t *testing.T) {
	res, err := ImportFiles("gobench", goFiles(t, "gobench-configs-handmade.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := runs(t, res)["BenchmarkParse-2"]
	if c := r.run.Cases; len(c) != 2 || c[0].Name != "BenchmarkParse-2 commit=a1" || c[1].Params["commit"] != "b2" {
		t.Errorf("cases %+v", c)
	}
	if r.run.Tags["commit"] != "" || r.run.Tags["pkg"] != "example.com/gb" {
		t.Errorf("tags %v: the differing key is no tag", r.run.Tags)
	}
	res, err = ImportFiles("gobench", goFiles(t, "gobench-old.txt"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := runs(t, res)["BenchmarkFormat-2"].run.Cases; c[0].Name != "BenchmarkFormat-2" {
		t.Errorf("lone file: %+v", c)
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}

// TestGobenchRefusals: what benchfmt or flybench's readers refuse is
// refused at its line.
func TestGobenchRefusals(t *testing.T) {
	head := "goos: linux\npkg: p\n"
	tests := []struct {
		name, data string
		line       int
		want       string
	}{
		{"empty", "", 0, "no benchmark results"},
		{"prose", "PASS\nok  p 0.1s\n", 0, "no benchmark results"},
		{"no-iterations", head + "BenchmarkX-2 \n", 3, "missing iteration count"},
		{"bad-count", head + "BenchmarkX-2 ten 5 ns/op\n", 3, "parsing iteration count"},
		{"no-units", head + "BenchmarkX-2 10 5\n", 3, "missing units"},
		{"zero-iterations", head + "BenchmarkX-2 0 5 ns/op\n", 3, "ran 0 iterations"},
		{"no-time", head + "BenchmarkX-2 10 5 B/op\n", 3, "no ns/op"},
		{"negative", head + "BenchmarkX-2 10 -5 ns/op\n", 3, "-5 ns/op over 10 iterations"},
		{"nan", head + "BenchmarkX-2 10 NaN ns/op\n", 3, "NaN ns/op"},
		{"twice", head + "BenchmarkX-2 10 5 ns/op 3 B/op 4 B/op\n", 3, "B/op given twice"},
		{"utf8", head + "BenchmarkX\xff-2 10 5 ns/op\n", 3, "invalid UTF-8"},
		{"long", head + "BenchmarkX" + strings.Repeat("y", 70000) + " 10 5 ns/op\n", 3, "a line of 70021 bytes"},
		{"tag-key", head + "a/b: 1\nBenchmarkX-2 10 5 ns/op\n", 3, `the configuration key "a/b" cannot be a tag`},
		{"tag-value", head + "note: " + strings.Repeat("v", 300) + "\n\nBenchmarkX-2 10 5 ns/op\n", 3, "longer than 256 bytes"},
		{"axes", head + "BenchmarkX-2 10 5 ns/op 1 a/op 1 b/op 1 c/op 1 d/op 1 e/op 1 f/op 1 g/op 1 h/op 1 i/op\n", 3, "BenchmarkX-2: "},
	}
	for _, tc := range tests {
		res, err := ImportFiles("gobench", []File{{Name: tc.name + ".txt", Data: []byte(tc.data)}}, Options{})
		var ie *InputError
		if !errors.As(err, &ie) || res != nil {
			t.Errorf("%s: imported (%v); want an InputError", tc.name, err)
			continue
		}
		if ie.File != tc.name+".txt" || ie.Line != tc.line || !strings.Contains(ie.Msg, tc.want) {
			t.Errorf("%s: %v\nwant line %d: %s", tc.name, err, tc.line, tc.want)
		}
	}
}

// TestGobenchFromGoTest: go test -bench's own output, written now,
// imports and reads back.
func TestGobenchFromGoTest(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command: cannot run go test -bench")
	}
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/gb\n\ngo 1.22\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "gb_test.go"), []byte(goBenchSource), 0o644))
	cmd := exec.Command(goBin, "test", "-run", "^$", "-bench", ".", "-benchtime", "200x", "-count", "3", "-benchmem")
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -bench: %v\n%s", err, out)
	}
	res, err := ImportFiles("gobench", []File{{Name: "bench.txt", Data: out}}, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rs := runs(t, res)
	if len(rs) != 3 {
		t.Fatalf("%d runs from\n%s", len(rs), out)
	}
	for name, r := range rs {
		if len(r.samples) != 3 || r.samples[0].Iter != 200 || r.samples[0].Axes["alloc_bytes"].V == nil {
			t.Errorf("%s: %d samples, first %+v", name, len(r.samples), r.samples[0])
		}
	}
	checkReadable(t, encode(t, res.Records), len(res.Records))
}

// goBenchSource is the package gobench-old.txt and gobench-new.txt come from.
const goBenchSource = `package gb

import (
	"strconv"
	"testing"
)

var sink []byte

func BenchmarkFormat(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = strconv.AppendInt(sink[:0], int64(i), 10)
	}
}

func BenchmarkAlloc(b *testing.B) {
	for _, n := range []int{16, 256} {
		b.Run("size="+strconv.Itoa(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink = make([]byte, n)
			}
			b.ReportMetric(float64(n), "bytes/op")
		})
	}
}
`

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
