package gotest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// Result is one benchmark's line from a batch's output.
type Result struct {
	// Name is the benchmark as printed, with its -N GOMAXPROCS suffix.
	Name string
	// Iterations is the b.N the line reports; Parse checks it against the
	// batch size.
	Iterations int64
	// NsPerOp is Go's own timer: the measured loop's time divided by b.N,
	// excluding process start-up, runtime initialization and whatever the
	// benchmark did with its timer stopped.
	NsPerOp float64
	// Metrics maps every other unit on the line to its value, as Go printed
	// it: B/op, allocs/op, MB/s and each b.ReportMetric unit.
	Metrics map[string]float64
	// Config holds the key: value lines printed before the benchmark
	// (goos, goarch, pkg, cpu), for the environment record.
	Config map[string]string
}

// ElapsedNS is the batch's self-reported elapsed time: NsPerOp for each
// of its Iterations. Dividing it by the batch size gives back NsPerOp.
func (r Result) ElapsedNS() float64 { return r.NsPerOp * float64(r.Iterations) }

// BenchError is a batch whose output holds no usable result for its
// benchmark: the benchmark failed, panicked, was not found, or reported
// something other than what was asked for.
type BenchError struct {
	Binary, Bench string
	Problem       string   // what went wrong, one line
	Output        []string // the binary's own lines that explain it
	Hint          string   // what to do, when there is something to say
}

func (e *BenchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %q: %s", e.Bench, e.Binary, e.Problem)
	for _, l := range e.Output {
		b.WriteString("\n    " + l)
	}
	if e.Hint != "" {
		b.WriteString("\nhint: " + e.Hint)
	}
	return b.String()
}

// Parse finds the result of s's benchmark in the output of a batch of n
// iterations (stdout and stderr together) and checks it: exactly one
// result line, ns/op present and positive, and b.N equal to n. Lines the
// benchmark or the test binary print around it, or in the middle of it
// (output written while the benchmark runs lands between its name and its
// numbers), are skipped. A failure, a panic, or no line at all becomes a
// *BenchError carrying the binary's own explanation.
func Parse(output []byte, s Spec, n int64) (Result, error) {
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	if n < 1 {
		return Result{}, fmt.Errorf("parse %s: batch size %d, want at least 1", s, n)
	}
	lines := splitLines(output)
	var at []int
	for i, l := range lines {
		if name, ok := printedName(l); ok && s.isName(name) {
			at = append(at, i)
		}
	}
	switch {
	case len(at) > 1:
		return Result{}, s.fail(fmt.Sprintf("%d result lines, want one", len(at)), pick(lines, at), "")
	case len(at) == 0:
		return Result{}, diagnose(lines, s)
	}
	r, ok := resultAt(lines, at[0])
	if !ok {
		return Result{}, diagnose(lines, s)
	}
	if err := s.check(r, n); err != nil {
		return Result{}, err
	}
	r.Config = config(lines[:at[0]])
	return r, nil
}

// splitLines splits output into lines without their terminators.
func splitLines(output []byte) []string {
	text := strings.ReplaceAll(string(output), "\r\n", "\n")
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// printedName is the benchmark name a line starts with: go test prints the
// name, pads it with spaces, and writes a tab before the results.
func printedName(line string) (string, bool) {
	head, _, ok := strings.Cut(line, "\t")
	name := strings.TrimRight(head, " ")
	if !ok || !strings.HasPrefix(name, "Benchmark") || strings.ContainsAny(name, " ") {
		return "", false
	}
	return name, true
}

// isName reports whether a printed name is s's benchmark: its name, with
// the -N suffix go test adds when GOMAXPROCS is not 1. With CPU set the
// suffix is known exactly.
func (s Spec) isName(printed string) bool {
	rest, ok := strings.CutPrefix(printed, s.Bench)
	switch {
	case !ok:
		return false
	case rest == "":
		return s.CPU <= 1
	case s.CPU == 1:
		return false
	case s.CPU > 1:
		return rest == "-"+strconv.Itoa(s.CPU)
	}
	digits, ok := strings.CutPrefix(rest, "-")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// resultAt reads the result that follows the name on line i: on the same
// line, or on a later one when the benchmark wrote output while it ran. It
// looks no further than the next line go test starts on its own.
func resultAt(lines []string, i int) (Result, bool) {
	name, rest, _ := strings.Cut(lines[i], "\t")
	name = strings.TrimRight(name, " ")
	for j := i; j < len(lines); j++ {
		text := rest
		if j > i {
			text = lines[j]
			if endsRegion(text) {
				break
			}
		}
		if r, ok := resultLine(text); ok {
			r.Name = name
			return r, true
		}
	}
	return Result{}, false
}

// endsRegion reports whether a line is one go test starts itself, so a
// result cannot continue past it.
func endsRegion(line string) bool {
	if _, ok := printedName(line); ok {
		return true
	}
	for _, p := range []string{"--- ", "PASS", "FAIL", "ok  \t", "panic: "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// resultLine parses "N<TAB>value unit<TAB>value unit...", where N may be
// preceded by output the benchmark wrote without a final newline.
func resultLine(text string) (Result, bool) {
	parts := strings.Split(text, "\t")
	if len(parts) < 2 {
		return Result{}, false
	}
	head := strings.TrimRight(parts[0], " ")
	digits := head[len(strings.TrimRight(head, "0123456789")):]
	iters, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return Result{}, false
	}
	r := Result{Iterations: iters, NsPerOp: math.NaN(), Metrics: map[string]float64{}}
	for _, p := range parts[1:] {
		f := strings.Fields(p)
		if len(f) != 2 {
			return Result{}, false
		}
		v, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return Result{}, false
		}
		if _, dup := r.Metrics[f[1]]; dup || (f[1] == "ns/op" && !math.IsNaN(r.NsPerOp)) {
			return Result{}, false
		}
		if f[1] == "ns/op" {
			r.NsPerOp = v
		} else {
			r.Metrics[f[1]] = v
		}
	}
	return r, true
}

// check holds a parsed result to what the batch asked for.
func (s Spec) check(r Result, n int64) error {
	switch {
	case math.IsNaN(r.NsPerOp):
		return s.fail("the result has no ns/op", []string{r.Name}, `a b.ReportMetric(0, "ns/op") hides it; flybench needs it as the timer`)
	case !(r.NsPerOp > 0) || math.IsInf(r.NsPerOp, 0):
		return s.fail(fmt.Sprintf("ns/op is %v: want a positive time", r.NsPerOp), nil, "")
	case r.Iterations != n:
		return s.fail(fmt.Sprintf("ran %d iterations, asked for %d with -test.benchtime=%dx", r.Iterations, n, n), nil,
			"the benchmark must leave b.N alone; a binary built before Go 1.12 does not know the Nx form")
	}
	return nil
}

// config reads benchfmt configuration lines ("key: value", the key
// starting with a lowercase letter and holding no space or uppercase).
func config(lines []string) map[string]string {
	c := map[string]string{}
	for _, l := range lines {
		k, v, ok := strings.Cut(l, ": ")
		if !ok || k == "" || !unicode.IsLower(rune(k[0])) || strings.IndexFunc(k, notKey) >= 0 {
			continue
		}
		c[k] = strings.TrimSpace(v)
	}
	return c
}

func notKey(r rune) bool { return unicode.IsSpace(r) || unicode.IsUpper(r) }

// pick returns the lines at the given indexes.
func pick(lines []string, at []int) []string {
	out := make([]string, len(at))
	for i, j := range at {
		out[i] = lines[j]
	}
	return out
}

func (s Spec) fail(problem string, output []string, hint string) *BenchError {
	return &BenchError{Binary: s.Binary, Bench: s.Bench, Problem: problem, Output: output, Hint: hint}
}
