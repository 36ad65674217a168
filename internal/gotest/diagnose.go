package gotest

import (
	"fmt"
	"strings"
)

// Most lines of the binary's own output an error carries.
const maxDetail = 20

// diagnose explains output that holds no result for s's benchmark: it
// failed (or its parent did), the binary panicked, it has sub-benchmarks
// and is not a leaf, or it does not exist.
func diagnose(lines []string, s Spec) *BenchError {
	if i, name := failure(lines, s); i >= 0 {
		return s.fail("benchmark failed", append([]string{"--- FAIL: " + name}, indented(lines[i+1:])...), "")
	}
	if i := panicked(lines); i >= 0 {
		return s.fail("the test binary panicked", nonEmpty(lines[i:], 6), "")
	}
	if subs := subBenchmarks(lines, s); len(subs) > 0 {
		return s.fail("has sub-benchmarks: name one of them", subs,
			fmt.Sprintf("write %s:%s", s.Binary, subs[0]))
	}
	for _, l := range lines {
		if name, ok := printedName(l); ok && s.isName(name) {
			return s.fail("no result after its name", nonEmpty(lines, maxDetail), "")
		}
	}
	return s.fail("no such benchmark, or it was skipped (b.Skip prints nothing without -test.v)",
		nonEmpty(lines, 6), notFoundHint(s))
}

// failure finds a "--- FAIL: NAME" line for s's benchmark or one of its
// parents; go test prints it at the start of a line, or after the name when
// the benchmark fails in the measured run.
func failure(lines []string, s Spec) (int, string) {
	for i, l := range lines {
		_, name, ok := strings.Cut(l, "--- FAIL: ")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		if s.isName(name) || strings.HasPrefix(s.Bench, name+"/") {
			return i, name
		}
	}
	return -1, ""
}

// indented is the run of indented lines go test prints after a FAIL line:
// the benchmark's log.
func indented(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "    ") || len(out) == maxDetail {
			break
		}
		out = append(out, strings.TrimPrefix(l, "    "))
	}
	return out
}

func panicked(lines []string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, "panic: ") {
			return i
		}
	}
	return -1
}

// subBenchmarks lists the leaves printed under s's benchmark, without the
// GOMAXPROCS suffix, so one of them can be named.
func subBenchmarks(lines []string, s Spec) []string {
	var subs []string
	for _, l := range lines {
		name, ok := printedName(l)
		if !ok || !strings.HasPrefix(name, s.Bench+"/") {
			continue
		}
		if s.CPU != 1 {
			name = procSuffix.ReplaceAllString(name, "")
		}
		subs = append(subs, name)
	}
	return subs
}

// nonEmpty returns up to max lines that are not blank.
func nonEmpty(lines []string, max int) []string {
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" && len(out) < max {
			out = append(out, l)
		}
	}
	return out
}

func notFoundHint(s Spec) string {
	top, _, sub := strings.Cut(s.Bench, "/")
	hint := fmt.Sprintf("list the benchmarks with: %s -test.list='^Benchmark'", s.Binary)
	if sub {
		hint = fmt.Sprintf("see the sub-benchmark names with: %s -test.run='^$' -test.bench='^%s$' -test.benchtime=1x", s.Binary, top)
	}
	if procSuffix.MatchString(s.Bench) {
		hint += fmt.Sprintf("; if %s is the GOMAXPROCS suffix go test printed, drop it", procSuffix.FindString(s.Bench))
	}
	return hint
}
