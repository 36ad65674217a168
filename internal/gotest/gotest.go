// Package gotest drives compiled Go test binaries as flybench batches: one
// process per batch runs one benchmark for exactly N iterations
// (-test.benchtime=Nx), and the batch's result is Go's own ns/op, which
// excludes process start-up and test runtime initialization, plus B/op,
// allocs/op, MB/s and every b.ReportMetric unit as custom axes.
//
// A Spec names one side (a binary and a benchmark in it), Argv builds the
// command of a batch, Parse reads the benchmark's line from the output, and
// Axes declares the custom axes its units imply (man fb-gotest(7)).
package gotest

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Spec is one side: a compiled test binary and a benchmark name in it.
type Spec struct {
	// Binary is the test binary (go test -c -o x.test). ParseSide makes it
	// absolute, so it does not depend on Dir or $PATH.
	Binary string
	// Bench is the benchmark's full name as go test prints it, without the
	// -N GOMAXPROCS suffix: BenchmarkSum or BenchmarkSum/size=10.
	Bench string
	// Benchmem passes -test.benchmem, so B/op and allocs/op are reported
	// even when the benchmark does not call b.ReportAllocs. It costs no
	// timing: the testing package reads memory statistics outside its
	// timer either way.
	Benchmem bool
	// Dir is the working directory of the binary; "" is the caller's own.
	// go test runs a binary in its package directory, so benchmarks that
	// read testdata/ need it.
	Dir string
	// CPU, when positive, passes -test.cpu=CPU, which sets GOMAXPROCS for
	// the benchmark. Zero leaves GOMAXPROCS to the Go runtime, as go test
	// -bench does (the CPUs the process may use, the cgroup limit, or the
	// GOMAXPROCS environment variable).
	CPU int
}

// ParseSide reads one side in the command-line form BINARY:BENCHMARK, for
// example "old.test:BenchmarkSum/size=10". The binary ends at the first
// ":Benchmark". An argument without a colon is a binary alone; its Bench
// is left empty for the caller to fill (Validate checks it is filled).
func ParseSide(arg string) (Spec, error) {
	bin, bench := arg, ""
	if i := strings.Index(arg, ":Benchmark"); i >= 0 {
		bin, bench = arg[:i], arg[i+1:]
	} else if i := strings.LastIndexByte(arg, ':'); i >= 0 {
		bin, bench = arg[:i], arg[i+1:]
		if bench == "" {
			return Spec{}, fmt.Errorf("%q: no benchmark after the colon (write BINARY:BenchmarkName)", arg)
		}
	}
	if bin == "" {
		return Spec{}, fmt.Errorf("%q: no test binary (write BINARY:BenchmarkName)", arg)
	}
	abs, err := filepath.Abs(bin)
	if err != nil {
		return Spec{}, fmt.Errorf("%q: %w", arg, err)
	}
	s := Spec{Binary: abs, Bench: bench}
	if bench != "" {
		if err := ValidBench(bench); err != nil {
			return Spec{}, fmt.Errorf("%q: %w", arg, err)
		}
	}
	return s, nil
}

// Validate checks that the spec names a binary and a well-formed benchmark.
func (s Spec) Validate() error {
	if s.Binary == "" {
		return errors.New("no test binary")
	}
	if s.Bench == "" {
		return fmt.Errorf("%q: no benchmark named (write BINARY:BenchmarkName)", s.Binary)
	}
	if s.CPU < 0 {
		return fmt.Errorf("%s: -test.cpu=%d: want a positive count", s, s.CPU)
	}
	if err := ValidBench(s.Bench); err != nil {
		return fmt.Errorf("%q: %w", s.Binary, err)
	}
	return nil
}

// String is the spec in its command-line form.
func (s Spec) String() string { return s.Binary + ":" + s.Bench }

// ValidBench checks a benchmark name as go test prints it: a top-level
// Benchmark function name, then sub-benchmark names separated by slashes,
// none empty and none holding white space (go test prints spaces as _).
func ValidBench(name string) error {
	if name == "" {
		return errors.New("empty benchmark name")
	}
	for _, r := range name {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return fmt.Errorf("benchmark %q: go test prints names without spaces or control characters", name)
		}
	}
	elems := strings.Split(name, "/")
	for _, e := range elems {
		if e == "" {
			return fmt.Errorf("benchmark %q: empty element between slashes", name)
		}
	}
	return validTopLevel(name, elems[0])
}

var procSuffix = regexp.MustCompile(`-[0-9]+$`)

// validTopLevel checks the function name: go test runs BenchmarkXxx
// where Xxx does not start with a lowercase letter.
func validTopLevel(name, top string) error {
	rest, ok := strings.CutPrefix(top, "Benchmark")
	if !ok {
		return fmt.Errorf("benchmark %q: the name must begin with Benchmark", name)
	}
	if r, _ := utf8.DecodeRuneInString(rest); rest != "" && unicode.IsLower(r) {
		return fmt.Errorf("benchmark %q: go test runs Benchmark functions whose next letter is not lowercase", name)
	}
	if procSuffix.MatchString(top) {
		return fmt.Errorf("benchmark %q: drop the %s, the GOMAXPROCS suffix go test appends to the name", name, procSuffix.FindString(top))
	}
	for _, r := range rest {
		if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return fmt.Errorf("benchmark %q: %q is not a Go function name", name, top)
		}
	}
	return nil
}

// Argv is the command of one batch of n iterations. The -test.bench
// pattern anchors every slash-separated element on its own, because the
// testing package matches each element of a sub-benchmark name against the
// corresponding element of the pattern: ^BenchmarkSum$/^size=10$ runs that
// sub-benchmark alone, while ^BenchmarkSum/size=10$ would also run
// BenchmarkSumAll/size=10.
func (s Spec) Argv(n int64) []string {
	argv := []string{
		s.Binary,
		"-test.run=^$",
		"-test.bench=" + BenchPattern(s.Bench),
		"-test.benchtime=" + strconv.FormatInt(n, 10) + "x",
		"-test.count=1",
	}
	if s.Benchmem {
		argv = append(argv, "-test.benchmem")
	}
	if s.CPU > 0 {
		argv = append(argv, "-test.cpu="+strconv.Itoa(s.CPU))
	}
	return argv
}

// BenchPattern is the -test.bench pattern that matches exactly the named
// benchmark: each element quoted and anchored.
func BenchPattern(name string) string {
	elems := strings.Split(name, "/")
	for i, e := range elems {
		elems[i] = "^" + regexp.QuoteMeta(e) + "$"
	}
	return strings.Join(elems, "/")
}
