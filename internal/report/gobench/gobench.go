// Package gobench is fb-report --format gobench: every sample of every
// run in Go's benchmark format, written with golang.org/x/perf/benchfmt,
// so benchstat and the other tools of golang.org/x/perf read flybench's
// measurements. Each sample is a result line: the iterations of its batch,
// its time per operation as ns/op, and every collected axis.
package gobench

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// errNoRuns is a stream without run records: recordings have no batches
// to write as results.
var errNoRuns = &model.NotAnalyzedError{Msg: "the stream holds no run records, nothing to write in Go's benchmark format " +
	"(recordings have no place in it)"}

// Write writes every run's samples. Each case is the sub-benchmark
// case=NAME of the run's benchmark: the Go benchmark a gotest run or an
// imported gobench run measured, else BenchmarkRun. The host facts
// (goos, goarch, cpu) and the run's tags are configuration lines; when
// two runs would give one benchmark name, a "run" line (the run id)
// tells them apart. Units with a direction get a "Unit ... better=" line.
func Write(w io.Writer, runs []*model.Run) error {
	if len(runs) == 0 {
		return errNoRuns
	}
	names := make([][]string, len(runs))
	for i, r := range runs {
		names[i] = caseNames(r)
	}
	tagRuns := collide(names)
	out := bufio.NewWriter(w)
	bw := benchfmt.NewWriter(out)
	written := map[string]bool{}
	for i, r := range runs {
		if err := writeUnits(bw, r, written); err != nil {
			return err
		}
		config := configOf(r, tagRuns)
		for _, k := range r.Samples.Ordered() {
			s, err := r.Samples.Sample(k)
			if err != nil {
				return err
			}
			if s.Case < 0 || s.Case >= len(names[i]) {
				continue
			}
			res := &benchfmt.Result{Config: config, Name: benchfmt.Name(names[i][s.Case]), Iters: int(s.Iter), Values: values(r, s)}
			if err := bw.Write(res); err != nil {
				return fmt.Errorf("write gobench: %w", err)
			}
		}
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write gobench: %w", err)
	}
	return nil
}

// caseNames are the run's cases as benchmark names without the
// "Benchmark" prefix the writer adds: Base/case=LABEL[-PROCS].
func caseNames(r *model.Run) []string {
	out := make([]string, len(r.Run.Cases))
	for i, c := range r.Run.Cases {
		base, procs := goName(c.Command)
		label := r.CaseName(i)
		if base == "" {
			base = "Run"
		} else if rest, ok := strings.CutPrefix(label, c.Command+" "); ok {
			label = rest // an imported gobench case: the benchmark, then its label
		}
		out[i] = base + "/case=" + clean(label) + procs
	}
	return out
}

// goName splits a Go benchmark named by a case's command ("BenchmarkX-8",
// or a gotest side "bin.test:BenchmarkX") into its name without
// "Benchmark" and its -GOMAXPROCS suffix; "" when the command names none.
func goName(command string) (base, procs string) {
	if i := strings.LastIndexByte(command, ':'); i >= 0 {
		command = command[i+1:]
	}
	rest, ok := strings.CutPrefix(command, "Benchmark")
	if !ok || rest == "" || strings.ContainsFunc(rest, unicode.IsSpace) {
		return "", ""
	}
	_, parts := benchfmt.Name(rest).Parts()
	if n := len(parts); n > 0 && bytes.HasPrefix(parts[n-1], []byte("-")) {
		procs = string(parts[n-1])
		return strings.TrimSuffix(rest, procs), procs
	}
	return rest, ""
}

// clean makes a label one sub-benchmark value: white space and "/"
// become "_", and a "-N" ending it, which Go reads as GOMAXPROCS, gets a
// "_" after it.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '/' {
			return '_'
		}
		return r
	}, s)
	if s == "" {
		return "_"
	}
	if i := strings.LastIndexByte(s, '-'); i >= 0 && i < len(s)-1 && strings.Trim(s[i+1:], "0123456789") == "" {
		s += "_"
	}
	return s
}

// collide says whether two runs give a benchmark of the same name.
func collide(names [][]string) bool {
	seen := map[string]int{}
	for i, ns := range names {
		for _, n := range ns {
			if j, ok := seen[n]; ok && j != i {
				return true
			}
			seen[n] = i
		}
	}
	return false
}

// configOf is a run's configuration lines: the host's goos, goarch and
// cpu where known, the tags whose keys Go's format takes, and the run id
// when runs must be told apart.
func configOf(r *model.Run, withRun bool) []benchfmt.Config {
	var out []benchfmt.Config
	add := func(k, v string) {
		if v != "" && v != "unknown" && !strings.ContainsAny(v, "\n\r") && !slices.ContainsFunc(out, func(c benchfmt.Config) bool { return c.Key == k }) {
			out = append(out, benchfmt.Config{Key: k, Value: []byte(v), File: true})
		}
	}
	h := r.Run.Host
	add("goos", h.OS)
	add("goarch", h.Arch)
	add("cpu", h.CPUModel)
	if withRun {
		add("run", r.Run.RunID)
	}
	keys := make([]string, 0, len(r.Run.Tags))
	for k := range r.Run.Tags {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if goKey(k) {
			add(k, r.Run.Tags[k])
		}
	}
	return out
}

// goKey says whether Go's format takes k as a configuration key: a
// lower-case letter first, then no space, upper-case letter or colon. A
// tag named like a host key (goos, goarch, cpu) or run gives way to it.
func goKey(k string) bool {
	for i, r := range k {
		if i == 0 && !unicode.IsLower(r) || unicode.IsSpace(r) || unicode.IsUpper(r) || r == ':' {
			return false
		}
	}
	return k != ""
}

// values are a sample's ns/op and its collected axes, in the run's axis
// order.
func values(r *model.Run, s ndjson.Sample) []benchfmt.Value {
	out := []benchfmt.Value{{Value: s.OpNS * 1e-9, Unit: "sec/op", OrigValue: s.OpNS, OrigUnit: "ns/op"}}
	for i, a := range r.Run.Axes {
		if i == 0 {
			continue // the timing axis: ns/op
		}
		v, ok := s.Axes[a.Name]
		if !ok || v.V == nil {
			continue
		}
		out = append(out, benchfmt.Value{Value: *v.V, Unit: unitOf(r, a)})
	}
	return out
}

// unitOf is the unit an axis is written in: a Go benchmark's own unit
// for the axes of go test's units (B/op, allocs/op, MB/s, ReportMetric
// units), else the axis name and its unit, e.g. minor_faults-faults/op.
func unitOf(r *model.Run, a ndjson.AxisInfo) string {
	if a.Family == "custom" && r.Run.Mode == ndjson.ModeGotest {
		return a.Unit
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return '_'
		}
		return r
	}, a.Name+"-"+a.Unit)
}

// writeUnits writes a "Unit" line for every axis with a better direction
// not written before, so benchstat knows which way is an improvement.
func writeUnits(bw *benchfmt.Writer, r *model.Run, written map[string]bool) error {
	for i, a := range r.Run.Axes {
		better := map[string]string{"lower": "lower", "higher": "higher"}[a.Direction]
		u := unitOf(r, a)
		if i == 0 || better == "" || written[u] {
			continue
		}
		written[u] = true
		m := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: "better"}, OrigUnit: u, Value: better}
		if err := bw.Write(m); err != nil {
			return fmt.Errorf("write gobench: %w", err)
		}
	}
	return nil
}
