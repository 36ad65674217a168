package gotest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/custom"
)

const realBench = `package fbreal

import (
	"os"
	"testing"
)

var sink []byte

// BenchmarkWidgets needs its package directory: it reads testdata.
func BenchmarkWidgets(b *testing.B) {
	in, err := os.ReadFile("testdata/in.txt")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		sink = append([]byte(nil), in...)
	}
	b.ReportMetric(3, "widgets/op")
}

func BenchmarkOther(b *testing.B) {
	for b.Loop() {
		sink = make([]byte, 8)
	}
}

func BenchmarkOtherAll(b *testing.B) {
	for b.Loop() {
	}
}

func BenchmarkSub(b *testing.B) {
	for _, name := range []string{"a b+c", "a b+c", "x/y", "x"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
			}
		})
	}
}

func BenchmarkFail(b *testing.B) {
	b.Fatalf("broken on purpose")
}
`

// buildReal compiles a small benchmark package with the go toolchain from
// $PATH and returns the test binary and its package directory.
func buildReal(t *testing.T) (string, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain in $PATH")
	}
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module example.com/fbreal\n\ngo 1.21\n",
		"bench_test.go":   realBench,
		"testdata/in.txt": strings.Repeat("x", 100),
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "x.test")
	cmd := exec.Command(goTool, "test", "-c", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	return bin, dir
}

func runReal(t *testing.T, s Spec, n int64) (Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return s.Run(ctx, n)
}

func TestRealBinary(t *testing.T) {
	bin, dir := buildReal(t)
	s, err := ParseSide(bin + ":BenchmarkWidgets")
	if err != nil {
		t.Fatal(err)
	}
	s.Benchmem, s.Dir = true, dir
	w, err := runReal(t, s, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if w.Iterations != 1000 || !(w.NsPerOp > 0) || w.Metrics["widgets/op"] != 3 ||
		!(w.Metrics["B/op"] >= 100) || !(w.Metrics["allocs/op"] >= 1) || w.Config["pkg"] != "example.com/fbreal" {
		t.Fatalf("widgets: %+v", w)
	}

	// A second benchmark of the same binary, whose name another one extends.
	o := s
	o.Bench = "BenchmarkOther"
	other, err := runReal(t, o, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if other.Iterations != 1000 || !(other.NsPerOp > 0) || other.Metrics["allocs/op"] != 1 || !strings.HasPrefix(other.Name, "BenchmarkOther") {
		t.Fatalf("other: %+v", other)
	}
	ds := Axes(w, other)
	if err := custom.ValidateSet(ds); err != nil || len(ds) != 3 {
		t.Fatalf("axes %+v: %v", ds, err)
	}
	for _, r := range []Result{w, other} {
		if _, err := Values(ds, r); err != nil {
			t.Fatal(err)
		}
	}
}

// The pattern Argv builds selects the named sub-benchmark through the
// testing package's own matcher, for names that need quoting (+), carry a
// de-duplication suffix (#01) or hold a slash. A plain ^BenchmarkSub/a_b+c$
// would run none of them, and an unanchored element would also run the #01.
func TestRealSubBenchmarks(t *testing.T) {
	bin, dir := buildReal(t)
	for _, name := range []string{"BenchmarkSub/a_b+c", "BenchmarkSub/a_b+c#01", "BenchmarkSub/x/y", "BenchmarkSub/x"} {
		s := Spec{Binary: bin, Bench: name, Dir: dir, CPU: 1}
		r, err := runReal(t, s, 50)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if r.Name != name || r.Iterations != 50 {
			t.Errorf("%s: %+v", name, r)
		}
		if ran := benchLines(t, s); name != "BenchmarkSub/x" && ran != 1 {
			t.Errorf("%s: %d benchmarks ran, want 1", name, ran)
		}
	}
}

// benchLines runs one batch of s and counts the benchmarks that printed a
// result. (BenchmarkSub/x also runs its sibling x/y: the testing package
// lets deeper names through, and cannot be told not to.)
func benchLines(t *testing.T, s Spec) int {
	argv := s.Argv(5)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	n := 0
	for _, l := range splitLines(out) {
		if _, ok := printedName(l); ok {
			n++
		}
	}
	return n
}

func TestRealFailures(t *testing.T) {
	bin, dir := buildReal(t)
	cases := map[string]string{
		"BenchmarkFail":    "broken on purpose",
		"BenchmarkMissing": "no such benchmark",
		"BenchmarkSub":     "has sub-benchmarks",
		"BenchmarkWidgets": "no such file", // run outside its package directory
	}
	for name, want := range cases {
		s := Spec{Binary: bin, Bench: name, Dir: dir}
		if name == "BenchmarkWidgets" {
			s.Dir = t.TempDir()
		}
		_, err := runReal(t, s, 10)
		var be *BenchError
		if !errors.As(err, &be) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a BenchError with %q", name, err, want)
		}
	}
	_, err := runReal(t, Spec{Binary: filepath.Join(dir, "absent.test"), Bench: "BenchmarkX"}, 10)
	if err == nil || !strings.Contains(err.Error(), "absent.test") {
		t.Errorf("absent binary: %v", err)
	}
}
