package report

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/flybench/flybench/internal/importer"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// benchstatVersion is the golang.org/x/perf the module requires, whose
// benchstat checks the gobench format.
const benchstatVersion = "v0.0.0-20260908200009-22c9c6c9d4da"

// importedGobench is go test -bench output of two builds (the importer's
// testdata, written by go test), imported and analysed.
func importedGobench(t *testing.T) *model.Stream {
	t.Helper()
	var files []importer.File
	for _, name := range []string{"gobench-old.txt", "gobench-new.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "importer", "testdata", name))
		check(t, err)
		files = append(files, importer.File{Name: name, Data: data})
	}
	res, err := importer.ImportFiles("gobench", files, importer.Options{})
	check(t, err)
	return analyzed(t, res.Records)
}

// gobenchStreams are the streams the format is checked on: imported go
// test output and a paired run collected like fb-pair's.
func gobenchStreams(t *testing.T) map[string]*model.Stream {
	return map[string]*model.Stream{
		"imported": importedGobench(t),
		"paired":   analyzed(t, teleRun("aaaa1111-0000-4000-8000-000000000001", 12, []float64{2e6, 1.8e6}, "./old --in x", "./new --in x")),
	}
}

func renderAs(t *testing.T, s *model.Stream, format string) []byte {
	return renderStream(t, s, Options{Format: format})
}

// TestGobenchSamples: benchfmt reads back every sample, as a result line
// of its iterations, its op_ns as ns/op and its collected axes, the case
// the sub-benchmark case=NAME.
func TestGobenchSamples(t *testing.T) {
	for name, s := range gobenchStreams(t) {
		out := renderAs(t, s, "gobench")
		r := benchfmt.NewReader(bytes.NewReader(out), name)
		var got []*benchfmt.Result
		for r.Scan() {
			switch rec := r.Result().(type) {
			case *benchfmt.SyntaxError:
				t.Fatalf("%s: %v\n%s", name, rec, out)
			case *benchfmt.Result:
				got = append(got, rec.Clone())
			}
		}
		var want []ndjson.Sample
		for _, run := range s.Runs {
			want = append(want, ordered(t, run.Samples)...)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d results for %d samples", name, len(got), len(want))
		}
		for i, res := range got {
			ns, _ := res.Value("sec/op")
			if res.Iters != int(want[i].Iter) || math.Abs(ns*1e9-want[i].OpNS) > 1e-9*want[i].OpNS || !strings.Contains(string(res.Name), "/case=") {
				t.Fatalf("%s: result %d %s %d %g sec/op, want %d iterations at %g ns", name, i, res.Name, res.Iters, ns, want[i].Iter, want[i].OpNS)
			}
		}
	}
	out := string(renderAs(t, importedGobench(t), "gobench"))
	for _, want := range []string{"goos: linux\n", "pkg: example.com/gb\n", "BenchmarkAlloc/size=256/case=gobench-old.txt-2 2000 206.1 ns/op 256 B/op 1 allocs/op 256 bytes/op\n", "Unit B/op better=lower\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// ordered are a store's samples sorted by seq (stably, by insertion).
func ordered(t *testing.T, st *model.SampleStore) []ndjson.Sample {
	var out []ndjson.Sample
	for i := range st.Len() {
		v, err := st.Sample(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Seq < out[j-1].Seq; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestGobenchBenchstat: benchstat, fetched from the module proxy at the
// version this module requires, reads the gobench output and prints every
// case's median as fb-report's summary has it (to benchstat's four
// digits). It skips, saying why, when benchstat cannot be fetched or built.
func TestGobenchBenchstat(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command: cannot run benchstat")
	}
	dir := t.TempDir()
	for name, s := range gobenchStreams(t) {
		file := filepath.Join(dir, name+".txt")
		check(t, os.WriteFile(file, renderAs(t, s, "gobench"), 0o644))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, goBin, "run", "golang.org/x/perf/cmd/benchstat@"+benchstatVersion, file)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOFLAGS=")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Skipf("cannot run benchstat %s from the module proxy: %v\n%s", benchstatVersion, err, stderr.String())
		}
		medians := benchstatMedians(t, out)
		checked := 0
		for _, run := range s.Runs {
			names := caseNamesOf(t, run)
			for i := range run.Run.Cases {
				sum := run.Summary(i)
				got, ok := medians[names[i]]
				if !ok {
					t.Errorf("%s: benchstat has no row %q:\n%s", name, names[i], out)
					continue
				}
				if math.Abs(got-sum.Median) > 5e-4*sum.Median {
					t.Errorf("%s: %s: benchstat's median %g ns, fb-report's %g ns", name, names[i], got, sum.Median)
				}
				t.Logf("%s: %s: benchstat %g ns, fb-report %g ns", name, names[i], got, sum.Median)
				checked++
			}
		}
		if checked == 0 {
			t.Errorf("%s: no case checked", name)
		}
	}
}

// caseNamesOf is each case's benchmark name as benchstat prints it: the
// written name without "Benchmark".
func caseNamesOf(t *testing.T, run *model.Run) []string {
	t.Helper()
	out := renderAs(t, &model.Stream{Runs: []*model.Run{run}}, "gobench")
	names := make([]string, len(run.Run.Cases))
	r := benchfmt.NewReader(bytes.NewReader(out), "one")
	i := 0
	for r.Scan() && i < len(names) {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			n := string(res.Name)
			if i == 0 || names[i-1] != n {
				names[i] = n
				i++
			}
		}
	}
	return names
}

// benchstatMedians reads the sec/op table of benchstat's text output:
// each row's name and its center (the median) in nanoseconds.
func benchstatMedians(t *testing.T, out []byte) map[string]float64 {
	t.Helper()
	medians := map[string]float64{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		switch {
		case strings.Contains(line, "sec/op"):
			in = true
		case len(f) == 0 || strings.Contains(line, "│") && !strings.HasPrefix(strings.TrimSpace(line), "geomean") && len(f) < 2:
			in = false
		case in && len(f) >= 2 && f[0] != "geomean" && !strings.HasPrefix(f[0], "│"):
			if v, err := siValue(f[1]); err == nil {
				medians[f[0]] = v * 1e9
			} // else a footnote

		}
	}
	return medians
}

// siValue reads benchstat's scaled number: 36.48n, 1.234µ, 2.000m, 1.5.
func siValue(s string) (float64, error) {
	scale := map[string]float64{"n": 1e-9, "µ": 1e-6, "m": 1e-3, "": 1, "k": 1e3}
	for suffix, m := range scale {
		if suffix != "" && strings.HasSuffix(s, suffix) {
			v, err := strconv.ParseFloat(strings.TrimSuffix(s, suffix), 64)
			return v * m, err
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("not a number: %q", s)
	}
	return v, nil
}
