package importer

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Google Benchmark's JSON (--benchmark_format=json, or --benchmark_out
// with --benchmark_out_format=json): a "context" object about the machine
// and a "benchmarks" array with one entry per repetition of each
// benchmark (run_type "iteration") followed by its aggregates (run_type
// "aggregate": mean, median, stddev, cv). Each benchmark (run_name) is a
// case; each repetition a sample, a batch of "iterations" timed by the
// library's real_time per iteration.
type gbDocument struct {
	Context    *gbContext  `json:"context"`
	Benchmarks *[]*gbEntry `json:"benchmarks"`
}

// gbFields is the document again, each entry's fields by name, for the
// counters.
type gbFields struct {
	Benchmarks []map[string]json.RawMessage `json:"benchmarks"`
}

type gbContext struct {
	Date              string `json:"date"`
	HostName          string `json:"host_name"`
	NumCPUs           int    `json:"num_cpus"`
	CPUScalingEnabled bool   `json:"cpu_scaling_enabled"`
	LibraryBuildType  string `json:"library_build_type"`
}

type gbEntry struct {
	Name          *string  `json:"name"`
	RunName       string   `json:"run_name"`
	RunType       string   `json:"run_type"`
	AggregateName string   `json:"aggregate_name"`
	AggregateUnit string   `json:"aggregate_unit"`
	Iterations    *int64   `json:"iterations"`
	RealTime      *float64 `json:"real_time"`
	TimeUnit      string   `json:"time_unit"`
	ErrorOccurred bool     `json:"error_occurred"`
	ErrorMessage  string   `json:"error_message"`
}

// gbKnown are the fields of an entry that are no counter.
var gbKnown = []string{"name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
	"repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name", "aggregate_unit",
	"error_occurred", "error_message", "label", "skipped", "big_o", "rms"}

// gbUnits are time_unit's values in nanoseconds.
var gbUnits = map[string]float64{"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}

const (
	gbTool      = "google-benchmark"
	gbTimerNote = "Google Benchmark's real_time per iteration of each repetition (iterations × real_time is the repetition's timed wall time); its setup and the library's own calibration runs are excluded"
	gbClock     = "google-benchmark (unknown)"
)

var gbWords = docWords{shape: `an object with a "benchmarks" array`, what: "Google Benchmark's JSON", number: "a number"}

// gbAxes declares the library's own per-iteration values.
var gbAxes = map[string]custom.Descriptor{
	"cpu_time":         {Name: "bm_cpu_time", Unit: "ns/op", Direction: axes.LowerIsBetter, Compare: custom.Relative},
	"bytes_per_second": {Name: "bytes_per_s", Unit: "B/s", Direction: axes.HigherIsBetter, Compare: custom.Relative},
	"items_per_second": {Name: "items_per_s", Unit: "items/s", Direction: axes.HigherIsBetter, Compare: custom.Relative},
}

// parseGbench reads Google Benchmark's JSON.
func parseGbench(file string, data []byte) (*source, error) {
	var doc gbDocument
	if err := decodeDocument(file, data, &doc, "the file is empty: a Google Benchmark binary writes it with --benchmark_format=json (or --benchmark_out=FILE --benchmark_out_format=json)", gbWords); err != nil {
		return nil, err
	}
	if doc.Benchmarks == nil {
		return nil, &InputError{File: file, Line: 1, Msg: `no "benchmarks" array: not Google Benchmark's JSON`}
	}
	src := &source{tool: gbTool, mode: ndjson.ModeBatch, clock: gbClock, ident: data, batching: "equal-time",
		timer: &ndjson.Timer{Kind: ndjson.TimerSelf, Axis: "real_time", Source: gbTool, ResolutionNS: 1, Note: gbTimerNote},
		zero:  "the library recorded 0 time per iteration; fb-analyze summarizes such a case but cannot compare it"}
	var fields gbFields
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, decodeError(file, data, err, gbWords)
	}
	g := &gbReader{file: file, data: data, src: src, byName: map[string]int{}}
	g.context(doc.Context)
	for i, e := range *doc.Benchmarks {
		if err := g.entry(i, e, fields.Benchmarks[i]); err != nil {
			return nil, err
		}
	}
	return g.finish()
}

// gbReader gathers the entries of one file into cases.
type gbReader struct {
	file     string
	data     []byte
	src      *source
	byName   map[string]int
	means    map[int]timing
	errors   map[int]int
	messages map[int]string
	counters []string
	dropped  []string
}

// context takes the machine's facts and the library's warnings.
func (g *gbReader) context(c *gbContext) {
	if c == nil {
		return
	}
	g.src.host = ndjson.Host{Hostname: c.HostName, CPUs: c.NumCPUs}
	if t, err := time.Parse(time.RFC3339, c.Date); err == nil {
		g.src.started = t.UTC().Format(time.RFC3339)
	}
	if c.CPUScalingEnabled {
		g.src.warnings = append(g.src.warnings, g.file+": the library saw CPU frequency scaling enabled (context.cpu_scaling_enabled): its times may be noisier than they would be with a fixed frequency")
	}
	if c.LibraryBuildType == "debug" {
		g.src.warnings = append(g.src.warnings, g.file+": the library was a debug build (context.library_build_type): its own overhead may be in the times")
	}
}

// entry reads benchmarks[i].
func (g *gbReader) entry(i int, p *gbEntry, fields map[string]json.RawMessage) error {
	at := fmt.Sprintf("benchmarks[%d]", i)
	bad := func(msg string, path ...any) error {
		return &InputError{File: g.file, Line: lineAt(g.data, append([]any{"benchmarks", i}, path...)...), Msg: at + msg}
	}
	if p == nil {
		return bad(" is null, want an object")
	}
	e := *p
	switch {
	case e.Name == nil:
		return bad(` has no "name"`)
	case e.RunType == "aggregate" || e.AggregateName != "":
		return g.aggregate(i, e)
	case e.ErrorOccurred:
		g.failed(g.caseOf(i, e), e.ErrorMessage)
		return nil
	case e.RunType != "" && e.RunType != "iteration":
		return bad(fmt.Sprintf(`.run_type is %q: Google Benchmark writes "iteration" or "aggregate"`, e.RunType), "run_type")
	}
	t, err := gbTiming(e, at, bad)
	if err != nil {
		return err
	}
	t.axes = g.values(fields)
	c := g.caseOf(i, e)
	g.src.benchmarks[c].runs = append(g.src.benchmarks[c].runs, t)
	return nil
}

// gbTiming is an iteration entry's batch: its iterations and real time
// per iteration in nanoseconds.
func gbTiming(e gbEntry, at string, bad func(string, ...any) error) (timing, error) {
	scale, ok := gbUnits[cmp.Or(e.TimeUnit, "ns")]
	switch {
	case !ok:
		return timing{}, bad(fmt.Sprintf(".time_unit is %q: Google Benchmark writes ns, us, ms or s", e.TimeUnit), "time_unit")
	case e.Iterations == nil:
		return timing{}, bad(` has no "iterations"`)
	case *e.Iterations < 1:
		return timing{}, bad(fmt.Sprintf(".iterations is %d: a repetition runs at least one", *e.Iterations), "iterations")
	case e.RealTime == nil:
		return timing{}, bad(` has no "real_time"`)
	}
	ns := *e.RealTime * scale
	if ns < 0 || math.IsInf(ns, 0) || ns*float64(*e.Iterations) > math.MaxInt64 {
		return timing{}, bad(fmt.Sprintf(".real_time is %g %s over %d iterations: a time per iteration is from 0 to %.3g ns in all", *e.RealTime, e.TimeUnit, *e.Iterations, float64(math.MaxInt64)), "real_time")
	}
	return timing{iter: *e.Iterations, ns: ns}, nil
}

// caseOf is the index of the case of an entry: its run_name (its name
// before Google Benchmark 1.5), in the order they first appear.
func (g *gbReader) caseOf(i int, e gbEntry) int {
	name := cmp.Or(e.RunName, *e.Name)
	if c, ok := g.byName[name]; ok {
		return c
	}
	g.byName[name] = len(g.src.benchmarks)
	g.src.benchmarks = append(g.src.benchmarks, benchmark{name: name, command: name, line: lineAt(g.data, "benchmarks", i),
		where: fmt.Sprintf("benchmarks[%d].name", i), path: []any{"benchmarks", i, "name"}})
	return len(g.src.benchmarks) - 1
}

// failed counts a repetition that stopped with an error, keeping the
// first message.
func (g *gbReader) failed(c int, msg string) {
	if g.errors == nil {
		g.errors, g.messages = map[int]int{}, map[int]string{}
	}
	if g.errors[c] == 0 {
		g.messages[c] = msg
	}
	g.errors[c]++
}

// aggregate keeps a benchmark's mean, for a file that holds its
// aggregates only (--benchmark_report_aggregates_only).
func (g *gbReader) aggregate(i int, e gbEntry) error {
	if e.AggregateName != "mean" || e.AggregateUnit != "" && e.AggregateUnit != "time" {
		return nil
	}
	at := fmt.Sprintf("benchmarks[%d]", i)
	bad := func(msg string, path ...any) error {
		return &InputError{File: g.file, Line: lineAt(g.data, append([]any{"benchmarks", i}, path...)...), Msg: at + msg}
	}
	one := int64(1)
	e.Iterations = &one
	t, err := gbTiming(e, at, bad)
	if err != nil {
		return err
	}
	if g.means == nil {
		g.means = map[int]timing{}
	}
	g.means[g.caseOf(i, e)] = t
	return nil
}

// finish drops the cases without a timing, uses the mean of those with
// aggregates only, and declares the counters.
func (g *gbReader) finish() (*source, error) {
	var kept []benchmark
	for c, b := range g.src.benchmarks {
		if n := g.errors[c]; n > 0 {
			g.src.warnings = append(g.src.warnings, fmt.Sprintf("%s: %d repetitions of %q stopped with an error (%s): not imported", g.file, n, b.name, g.messages[c]))
		}
		if len(b.runs) == 0 {
			m, ok := g.means[c]
			if !ok {
				if g.errors[c] == 0 {
					g.src.warnings = append(g.src.warnings, fmt.Sprintf("%s: %q has no repetition and no mean: not imported", g.file, b.name))
				}
				continue
			}
			g.src.warnings = append(g.src.warnings, fmt.Sprintf("%s: %q holds aggregates only (--benchmark_report_aggregates_only): imported as one sample, the mean per iteration of its repetitions, which fb-analyze cannot give an interval; run without it to keep every repetition", g.file, b.name))
			b.runs = []timing{m}
		}
		kept = append(kept, b)
	}
	if len(kept) == 0 {
		return nil, &InputError{File: g.file, Line: lineAt(g.data, "benchmarks"), Msg: `"benchmarks" holds no benchmark that ran: nothing to import`}
	}
	g.src.benchmarks = kept
	g.declare()
	if err := custom.ValidateSet(g.src.decls); err != nil {
		return nil, &InputError{File: g.file, Line: lineAt(g.data, "benchmarks"), Msg: fmt.Sprintf("the counters cannot be axes: %v", err)}
	}
	return g.src, nil
}

// declare makes the counters the run's custom axes, in the order first
// seen, at most custom.MaxAxes; a repetition without one gets its status.
func (g *gbReader) declare() {
	for _, k := range g.counters {
		d, ok := gbAxes[k]
		if !ok {
			d = custom.Descriptor{Name: counterName(k), Unit: "counter", Direction: axes.Diagnostic, Compare: custom.Absolute}
		}
		d.Semantics, d.Normalize = custom.AbsoluteV, custom.PerBatch
		g.src.decls = append(g.src.decls, d.Defaults())
	}
	if len(g.dropped) > 0 {
		g.src.warnings = append(g.src.warnings, fmt.Sprintf("%s: a run takes at most %d axes besides its time: the counters %s are not imported", g.file, custom.MaxAxes, strings.Join(g.dropped, ", ")))
	}
	for bi := range g.src.benchmarks {
		for ri, t := range g.src.benchmarks[bi].runs {
			if t.axes == nil && len(g.src.decls) == 0 {
				continue
			}
			vals := map[string]ndjson.AxisValue{}
			for _, d := range g.src.decls {
				v, ok := t.axes[d.Name]
				if !ok {
					v = ndjson.AxisValue{S: string(axes.ProbeFailed), R: "the repetition has no " + d.Name}
				}
				vals[d.Name] = v
			}
			g.src.benchmarks[bi].runs[ri].axes = vals
		}
	}
}

// values are an entry's cpu_time, throughputs and user counters, by axis
// name; a counter beyond the axes a run takes is dropped.
func (g *gbReader) values(fields map[string]json.RawMessage) map[string]ndjson.AxisValue {
	out := map[string]ndjson.AxisValue{}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if slices.Contains(gbKnown, k) && k != "cpu_time" {
			continue
		}
		var v float64
		if json.Unmarshal(fields[k], &v) != nil {
			continue // a string or object: not a counter
		}
		if !slices.Contains(g.counters, k) {
			if len(g.counters) == custom.MaxAxes {
				if !slices.Contains(g.dropped, k) {
					g.dropped = append(g.dropped, k)
				}
				continue
			}
			g.counters = append(g.counters, k)
		}
		name := counterName(k)
		if d, ok := gbAxes[k]; ok {
			name = d.Name
		}
		out[name] = ndjson.Collected(v)
	}
	if unit, ok := fields["time_unit"]; ok {
		var u string
		_ = json.Unmarshal(unit, &u)
		if scale, ok := gbUnits[u]; ok {
			if v, ok := out["bm_cpu_time"]; ok && v.V != nil {
				out["bm_cpu_time"] = ndjson.Collected(*v.V * scale)
			}
		}
	}
	return out
}

// counterName is the axis a user counter becomes: lowercase letters,
// digits, '.', '_' and '-', every other character '_', beginning with a
// letter (else "bm_" before it) and taking no built-in axis's name.
func counterName(k string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(k) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if _, builtin := axes.Lookup(name); name == "" || name[0] < 'a' || name[0] > 'z' || builtin || axes.IsTiming(name) || name == "elapsed_ns" {
		name = "bm_" + name
	}
	return name[:min(len(name), custom.MaxNameLen)]
}
