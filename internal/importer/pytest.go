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

	"github.com/flybench/flybench/pkg/ndjson"
)

// pytest-benchmark's JSON (--benchmark-json): "machine_info",
// "commit_info", and a "benchmarks" array with one entry per test, whose
// "stats" hold the summary and, where the file saved them, "data": every
// round's time per iteration in seconds. Each test is a case; each round
// a sample of "iterations" calls. A file without data holds the summary
// only: each case is then one sample, its mean over all rounds.
type pyDocument struct {
	MachineInfo *pyMachine   `json:"machine_info"`
	CommitInfo  *pyCommit    `json:"commit_info"`
	Benchmarks  *[]*pyResult `json:"benchmarks"`
	Datetime    string       `json:"datetime"`
	Version     string       `json:"version"`
}

type pyMachine struct {
	Node                 string `json:"node"`
	Machine              string `json:"machine"`
	Release              string `json:"release"`
	System               string `json:"system"`
	PythonImplementation string `json:"python_implementation"`
	PythonVersion        string `json:"python_version"`
	CPU                  *struct {
		Brand    string `json:"brand"`
		BrandRaw string `json:"brand_raw"`
		Count    int    `json:"count"`
	} `json:"cpu"`
}

type pyCommit struct {
	ID    string `json:"id"`
	Dirty bool   `json:"dirty"`
}

type pyResult struct {
	Name     *string        `json:"name"`
	Fullname string         `json:"fullname"`
	Params   map[string]any `json:"params"`
	Options  *pyOptions     `json:"options"`
	Stats    *pyStats       `json:"stats"`
}

type pyOptions struct {
	Timer string `json:"timer"`
}

type pyStats struct {
	Rounds     *int64      `json:"rounds"`
	Iterations *int64      `json:"iterations"`
	Mean       *float64    `json:"mean"`
	Data       *[]*float64 `json:"data"`
}

const (
	pyTool      = "pytest-benchmark"
	pyTimerNote = "pytest-benchmark's time per call of each round (stats.data: the round's time over its iterations), read with its timer (options.timer)"
	pyClock     = "pytest-benchmark (unknown)"
)

var pyWords = docWords{shape: `an object with a "benchmarks" array`, what: "pytest-benchmark's JSON", number: "a number of seconds"}

// pyArch is Python's platform.machine() in Go's GOARCH words, as fb-pair
// records a host.
var pyArch = map[string]string{"x86_64": "amd64", "AMD64": "amd64", "aarch64": "arm64", "arm64": "arm64", "i686": "386", "i386": "386"}

// parsePytest reads pytest-benchmark's JSON.
func parsePytest(file string, data []byte) (*source, error) {
	var doc pyDocument
	if err := decodeDocument(file, data, &doc, "the file is empty: pytest writes it with --benchmark-json=FILE", pyWords); err != nil {
		return nil, err
	}
	switch {
	case doc.Benchmarks == nil:
		return nil, &InputError{File: file, Line: 1, Msg: `no "benchmarks" array: not pytest-benchmark's JSON`}
	case len(*doc.Benchmarks) == 0:
		return nil, &InputError{File: file, Line: lineAt(data, "benchmarks"), Msg: `"benchmarks" is empty: pytest ran no benchmark`}
	}
	src := &source{tool: pyTool, mode: ndjson.ModeBatch, clock: pyClock, ident: data, batching: "equal-time",
		timer: &ndjson.Timer{Kind: ndjson.TimerSelf, Axis: "data", Source: pyTool, ResolutionNS: 1, Note: pyTimerNote},
		zero:  "pytest-benchmark recorded 0 s per call; fb-analyze summarizes such a case but cannot compare it"}
	pyHost(src, &doc)
	var summaries []string
	for i, r := range *doc.Benchmarks {
		b, summary, err := pyBenchmark(file, data, i, r)
		if err != nil {
			return nil, err
		}
		if summary {
			summaries = append(summaries, b.name)
		}
		src.benchmarks = append(src.benchmarks, b)
	}
	if len(summaries) > 0 {
		src.warnings = append(src.warnings, fmt.Sprintf("%s: %d of %d benchmarks have no stats.data (the rounds' times), only the summary: each is imported as one sample, its mean over all rounds, which fb-analyze cannot give an interval; save the rounds with pytest --benchmark-json=FILE --benchmark-save-data", file, len(summaries), len(src.benchmarks)))
	}
	if t := pyTimer(*doc.Benchmarks); t != "" {
		src.timer.Source = pyTool + " " + t
	}
	return src, nil
}

// pyHost takes what machine_info, commit_info and datetime say.
func pyHost(src *source, doc *pyDocument) {
	if t, err := time.Parse("2006-01-02T15:04:05.999999", doc.Datetime); err == nil {
		src.started = t.UTC().Format(time.RFC3339) // pytest-benchmark writes UTC without a zone
	}
	src.tags = map[string]string{}
	if m := doc.MachineInfo; m != nil {
		src.host = ndjson.Host{OS: strings.ToLower(m.System), Kernel: m.Release, Arch: cmp.Or(pyArch[m.Machine], m.Machine), Hostname: m.Node}
		if m.CPU != nil {
			src.host.CPUModel, src.host.CPUs = cmp.Or(m.CPU.BrandRaw, m.CPU.Brand), m.CPU.Count
		}
		if m.PythonVersion != "" {
			src.tags["python"] = strings.TrimSpace(m.PythonImplementation + " " + m.PythonVersion)
		}
	}
	if c := doc.CommitInfo; c != nil && c.ID != "" && c.ID != "unversioned" {
		src.tags["commit"] = c.ID
		if c.Dirty {
			src.tags["commit"] += "-dirty"
		}
	}
	for k, v := range src.tags {
		if len(v) > 256 {
			src.tags[k] = v[:256]
		}
	}
	if len(src.tags) == 0 {
		src.tags = nil
	}
}

// pyBenchmark checks benchmarks[i] and turns its rounds into samples;
// summary says it had none and its mean stands for them.
func pyBenchmark(file string, data []byte, i int, r *pyResult) (benchmark, bool, error) {
	at := fmt.Sprintf("benchmarks[%d]", i)
	bad := func(msg string, path ...any) error {
		return &InputError{File: file, Line: lineAt(data, append([]any{"benchmarks", i}, path...)...), Msg: at + msg}
	}
	switch {
	case r == nil:
		return benchmark{}, false, bad(" is null, want an object")
	case r.Name == nil:
		return benchmark{}, false, bad(` has no "name"`)
	case r.Stats == nil:
		return benchmark{}, false, bad(` has no "stats"`)
	case r.Stats.Iterations == nil || *r.Stats.Iterations < 1:
		return benchmark{}, false, bad(`.stats has no "iterations" of at least 1: each round calls the function that many times`, "stats")
	case r.Stats.Rounds == nil || *r.Stats.Rounds < 1:
		return benchmark{}, false, bad(`.stats has no "rounds" of at least 1`, "stats")
	}
	name := cmp.Or(r.Fullname, *r.Name)
	b := benchmark{name: name, command: name, line: lineAt(data, "benchmarks", i), params: pyParams(r.Params),
		where: at + ".fullname", path: []any{"benchmarks", i, "fullname"}}
	if r.Fullname == "" {
		b.where, b.path = at+".name", []any{"benchmarks", i, "name"}
	}
	iter := *r.Stats.Iterations
	check := func(sec float64, path ...any) (float64, error) {
		ns := sec * 1e9
		if ns < 0 || math.IsInf(ns, 0) || ns*float64(iter) > math.MaxInt64 {
			return 0, bad(fmt.Sprintf(".stats.%s is %g s: a time per call is from 0 to %.3g s in all", pathText(path), sec, float64(math.MaxInt64)/1e9/float64(iter)), append([]any{"stats"}, path...)...)
		}
		return ns, nil
	}
	if r.Stats.Data == nil {
		if r.Stats.Mean == nil {
			return benchmark{}, false, bad(`.stats has neither "data" nor "mean": nothing to import`, "stats")
		}
		all := iter * *r.Stats.Rounds
		iter = all
		ns, err := check(*r.Stats.Mean, "mean")
		if err != nil {
			return benchmark{}, false, err
		}
		b.runs = []timing{{iter: all, ns: ns}}
		return b, true, nil
	}
	if len(*r.Stats.Data) == 0 {
		return benchmark{}, false, bad(".stats.data is empty: no rounds to import", "stats", "data")
	}
	for j, sec := range *r.Stats.Data {
		if sec == nil {
			return benchmark{}, false, bad(fmt.Sprintf(".stats.data[%d] is null, want a time in seconds", j), "stats", "data", j)
		}
		ns, err := check(*sec, "data", j)
		if err != nil {
			return benchmark{}, false, err
		}
		b.runs = append(b.runs, timing{iter: iter, ns: ns})
	}
	return b, false, nil
}

// pathText spells a path below stats: data[3], mean.
func pathText(path []any) string {
	if len(path) == 2 {
		return fmt.Sprintf("%v[%v]", path[0], path[1])
	}
	return fmt.Sprint(path[0])
}

// pyParams are a test's parameters as strings: a string as it is, any
// other value as its JSON.
func pyParams(in map[string]any) map[string]string {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]string, len(in))
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if s, ok := in[k].(string); ok {
			out[k] = s
			continue
		}
		j, _ := json.Marshal(in[k]) // decoded from JSON: encodes
		out[k] = string(j)
	}
	return out
}

// pyTimer is the timer every benchmark used, "" when they differ or say
// nothing.
func pyTimer(rs []*pyResult) string {
	timer := ""
	for i, r := range rs {
		t := ""
		if r.Options != nil {
			t = r.Options.Timer
		}
		if i > 0 && t != timer {
			return ""
		}
		timer = t
	}
	return timer
}
