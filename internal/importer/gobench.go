package importer

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/gotest"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Go's benchmark format (golang.org/design/14313-benchmark-format), read
// with golang.org/x/perf/benchfmt: "key: value" configuration lines and
// "BenchmarkName N value unit ..." result lines; every other line (test
// output, PASS, ok) is skipped. Each benchmark (its package and full name,
// sub-benchmarks and -GOMAXPROCS included) is one run; each file, or each
// configuration within the files, one of its cases; each result line one
// sample, a batch of N iterations timed by Go's own ns/op.
const (
	goTimerNote = "Go's own ns/op as go test printed it (b.N iterations, to 4 significant digits or to the ns); process start-up and test runtime initialization are excluded, and the file holds no wall time: a sample's wall_ns is ns/op times b.N"
	goClock     = "go test (unknown)"
	// goMaxLine is the longest line benchfmt's reader takes (bufio's
	// default token size).
	goMaxLine = bufio.MaxScanTokenSize
)

// goTimer is the timer of an imported Go benchmark: Go's own, as in
// fb-pair --gotest.
func goTimer() *ndjson.Timer {
	return &ndjson.Timer{Kind: ndjson.TimerSelf, Axis: "elapsed_ns", Source: gotest.TimerSource,
		ResolutionNS: gotest.TimerResolutionNS, Note: goTimerNote}
}

// goResult is one result line, checked.
type goResult struct {
	file, line int
	config     []benchfmt.Config
	res        gotest.Result
}

// goRun gathers one benchmark's results: its key and, per label, its
// results in file order.
type goRun struct {
	pkg, name string
	cases     map[int][]goResult
}

// goReader reads every file's results into runs and labels.
type goReader struct {
	files  []File
	units  benchfmt.UnitMetadataMap
	runs   []*goRun
	byKey  map[string]*goRun
	labels []goLabel
}

// goLabel is what makes a case: its file and its configuration (pkg aside).
type goLabel struct {
	file   int
	config []benchfmt.Config
	key    string
}

// parseGobench reads Go benchmark files with benchfmt, one source per
// benchmark.
func parseGobench(files []File) ([]*source, error) {
	g := &goReader{files: files, byKey: map[string]*goRun{}}
	for i := range files {
		if err := g.read(i); err != nil {
			return nil, err
		}
	}
	if len(g.runs) == 0 {
		return nil, &InputError{File: files[0].Name, Msg: "no benchmark results: not the output of go test -bench (lines \"BenchmarkName N value unit ...\")"}
	}
	return g.sources()
}

// read reads file i.
func (g *goReader) read(i int) error {
	f := g.files[i]
	if err := checkUTF8(f.Name, f.Data); err != nil {
		return err
	}
	r := benchfmt.NewReader(bytes.NewReader(f.Data), f.Name)
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			return &InputError{File: f.Name, Line: rec.Line, Msg: rec.Msg}
		case *benchfmt.Result:
			if err := g.add(i, rec); err != nil {
				return err
			}
		}
	}
	if err := r.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			line, n := longLine(f.Data)
			return &InputError{File: f.Name, Line: line, Msg: fmt.Sprintf("a line of %d bytes: Go's benchmark reader takes lines of at most %d bytes", n, goMaxLine-1)}
		}
		return &InputError{File: f.Name, Msg: err.Error()}
	}
	if g.units == nil {
		g.units = benchfmt.UnitMetadataMap{}
	}
	for k, v := range r.Units() {
		g.units[k] = v
	}
	return nil
}

// longLine is the first line of data too long for benchfmt, and its length.
func longLine(data []byte) (line, n int) {
	for i, l := range bytes.Split(data, []byte{'\n'}) {
		if len(l) >= goMaxLine {
			return i + 1, len(l)
		}
	}
	return 0, len(data)
}

// add checks one result and files it under its benchmark and label.
func (g *goReader) add(file int, rec *benchfmt.Result) error {
	name, line := g.files[file].Name, 0
	_, line = rec.Pos()
	bad := func(format string, a ...any) error {
		return &InputError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	if len(rec.Name) == 0 {
		return bad("a result without a benchmark name")
	}
	if rec.Iters < 1 {
		return bad("Benchmark%s ran %d iterations: b.N is at least 1", rec.Name, rec.Iters)
	}
	res, err := goValues(rec)
	if err != nil {
		return bad("Benchmark%s: %v", rec.Name, err)
	}
	var config []benchfmt.Config
	pkg := ""
	for _, c := range rec.Config {
		if c.Key == "pkg" {
			pkg = string(c.Value)
			continue
		}
		config = append(config, benchfmt.Config{Key: c.Key, Value: slices.Clone(c.Value), File: c.File})
	}
	key := pkg + "\x00" + res.Name
	run := g.byKey[key]
	if run == nil {
		run = &goRun{pkg: pkg, name: res.Name, cases: map[int][]goResult{}}
		g.byKey[key] = run
		g.runs = append(g.runs, run)
	}
	label := g.label(file, config)
	run.cases[label] = append(run.cases[label], goResult{file: file, line: line, config: rec.Config, res: res})
	return nil
}

// label is the index of the label of a file and configuration.
func (g *goReader) label(file int, config []benchfmt.Config) int {
	parts := []string{fmt.Sprint(file)}
	for _, c := range config {
		parts = append(parts, c.Key+"="+string(c.Value))
	}
	slices.Sort(parts[1:])
	key := strings.Join(parts, "\x00")
	if i := slices.IndexFunc(g.labels, func(l goLabel) bool { return l.key == key }); i >= 0 {
		return i
	}
	g.labels = append(g.labels, goLabel{file: file, config: config, key: key})
	return len(g.labels) - 1
}

// goValues is a result's ns/op and its other units as go test printed
// them (benchfmt's original unit and value where it tidied them).
func goValues(rec *benchfmt.Result) (gotest.Result, error) {
	r := gotest.Result{Name: "Benchmark" + string(rec.Name), Iterations: int64(rec.Iters), Metrics: map[string]float64{}}
	timed := false
	for _, v := range rec.Values {
		unit, val := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, val = v.OrigUnit, v.OrigValue
		}
		if unit == "ns/op" {
			if timed {
				return r, errors.New("ns/op given twice")
			}
			timed, r.NsPerOp = true, val
			continue
		}
		if _, dup := r.Metrics[unit]; dup {
			return r, fmt.Errorf("%s given twice", unit)
		}
		r.Metrics[unit] = val
	}
	switch {
	case !timed:
		return r, errors.New("no ns/op: flybench imports Go's time per operation, and each result line has one")
	case math.IsNaN(r.NsPerOp) || r.NsPerOp < 0 || r.NsPerOp*float64(r.Iterations) > math.MaxInt64:
		return r, fmt.Errorf("%g ns/op over %d iterations: a time per operation is from 0 to %.3g ns in all", r.NsPerOp, r.Iterations, float64(math.MaxInt64))
	}
	return r, nil
}

// sources turns the runs into sources, in the order their benchmarks
// first appear.
func (g *goReader) sources() ([]*source, error) {
	labels, params := g.labelNames()
	sum := sha256.New()
	for _, f := range g.files {
		sum.Write(f.Data)
		sum.Write([]byte{0})
	}
	digest := sum.Sum(nil)
	var out []*source
	for _, run := range g.runs {
		src, err := g.source(run, labels, params)
		if err != nil {
			return nil, err
		}
		src.ident = append(slices.Clone(digest), run.pkg+"\x00"+run.name...)
		out = append(out, src)
	}
	return out, nil
}

// source is one benchmark's run: a case per label it has results under.
func (g *goReader) source(run *goRun, labels []string, params []map[string]string) (*source, error) {
	src := &source{tool: "gobench", mode: ndjson.ModeGotest, timer: goTimer(), clock: goClock, batching: "equal-time",
		labels: labels, zero: "go test printed 0 ns/op; fb-analyze summarizes such a case but cannot compare it: give the benchmark more work per iteration"}
	idx := slices.Sorted(maps.Keys(run.cases))
	var all []gotest.Result
	for _, l := range idx {
		for _, r := range run.cases[l] {
			all = append(all, r.res)
		}
	}
	first := run.cases[idx[0]][0]
	decls := g.decls(all)
	if err := custom.ValidateSet(decls); err != nil {
		return nil, &InputError{File: g.files[first.file].Name, Line: first.line, Msg: fmt.Sprintf("%s: %v", first.res.Name, err)}
	}
	src.decls = decls
	for _, l := range idx {
		rs := run.cases[l]
		b := benchmark{name: run.name, command: run.name, file: g.files[rs[0].file].Name, line: rs[0].line, label: l, params: params[l],
			where: fmt.Sprintf("%s:%d", g.files[rs[0].file].Name, rs[0].line)}
		for _, r := range rs {
			vals, err := gotest.Values(decls, r.res)
			if err != nil {
				return nil, &InputError{File: g.files[r.file].Name, Line: r.line, Msg: err.Error()}
			}
			b.runs = append(b.runs, timing{iter: r.res.Iterations, ns: r.res.NsPerOp, axes: vals})
		}
		src.benchmarks = append(src.benchmarks, b)
	}
	if err := g.fingerprint(src, run, idx); err != nil {
		return nil, err
	}
	if len(idx) < len(labels) {
		src.warnings = append(src.warnings, fmt.Sprintf("%s: %s is in %d of %d files or configurations: its run has no case for the others", src.benchmarks[0].where, run.name, len(idx), len(labels)))
	}
	return src, nil
}

// decls are the custom axes of a benchmark's units, as fb-pair --gotest
// declares them; a unit Go does not know is diagnostic unless a "Unit"
// line of the files says which way is better.
func (g *goReader) decls(all []gotest.Result) []custom.Descriptor {
	ds := gotest.Axes(all...)
	for i, d := range ds {
		if d.Direction != axes.Diagnostic || g.units == nil {
			continue
		}
		switch g.units.GetBetter(d.Unit) {
		case 1:
			ds[i].Direction = axes.HigherIsBetter
		case -1:
			ds[i].Direction = axes.LowerIsBetter
		}
	}
	return ds
}

// labelNames names every label: its file when there are several, then
// the configuration keys whose values differ between labels, as
// key=value; "" for a lone label. Those keys are also each label's
// params.
func (g *goReader) labelNames() ([]string, []map[string]string) {
	differ := g.differing()
	names, params := make([]string, len(g.labels)), make([]map[string]string, len(g.labels))
	if len(g.labels) == 1 {
		return names, params
	}
	for i, l := range g.labels {
		var parts []string
		if len(g.files) > 1 {
			parts = append(parts, g.fileLabel(l.file))
		}
		for _, k := range differ {
			if c := configValue(l.config, k); c != nil {
				parts = append(parts, k+"="+string(c))
				if params[i] == nil {
					params[i] = map[string]string{}
				}
				params[i][k] = string(c)
			}
		}
		names[i] = strings.Join(parts, " ")
	}
	return names, params
}

// fileLabel is file i's name, with "#n" after a name given before (as
// benchstat tells two files of one name apart).
func (g *goReader) fileLabel(i int) string {
	name := g.files[i].Name
	n := slices.IndexFunc(g.files, func(f File) bool { return f.Name == name })
	if n == i {
		return name
	}
	k := 1
	for _, f := range g.files[:i] {
		if f.Name == name {
			k++
		}
	}
	return fmt.Sprintf("%s#%d", name, k)
}

// differing are the configuration keys whose values are not the same in
// every label, in the order they first appear.
func (g *goReader) differing() []string {
	var keys []string
	for _, l := range g.labels {
		for _, c := range l.config {
			if !slices.Contains(keys, c.Key) {
				keys = append(keys, c.Key)
			}
		}
	}
	return slices.DeleteFunc(keys, func(k string) bool {
		first := configValue(g.labels[0].config, k)
		for _, l := range g.labels[1:] {
			if v := configValue(l.config, k); (v == nil) != (first == nil) || !bytes.Equal(v, first) {
				return false
			}
		}
		return first != nil
	})
}

func configValue(config []benchfmt.Config, key string) []byte {
	for _, c := range config {
		if c.Key == key {
			return c.Value
		}
	}
	return nil
}

// Go's configuration keys that are host facts.
var goHostKeys = map[string]func(h *ndjson.Host, v string){
	"goos":   func(h *ndjson.Host, v string) { h.OS = v },
	"goarch": func(h *ndjson.Host, v string) { h.Arch = v },
	"cpu":    func(h *ndjson.Host, v string) { h.CPUModel = v },
}

// maxFileTags bounds the tags an import takes from a file, as --tag is
// bounded.
const maxFileTags = 32

// fingerprint puts the configuration every case of the run shares into
// its fingerprint: goos, goarch and cpu into the host, pkg and the other
// keys into tags, each a name and value --tag would take.
func (g *goReader) fingerprint(src *source, run *goRun, idx []int) error {
	differ := g.differing()
	first := run.cases[idx[0]][0]
	src.tags = map[string]string{}
	if run.pkg != "" {
		src.tags["pkg"] = run.pkg
	}
	for _, c := range g.labels[idx[0]].config {
		if slices.Contains(differ, c.Key) {
			continue
		}
		if set, ok := goHostKeys[c.Key]; ok {
			set(&src.host, string(c.Value))
			continue
		}
		src.tags[c.Key] = string(c.Value)
	}
	for _, k := range slices.Sorted(maps.Keys(src.tags)) {
		v, why := src.tags[k], ""
		switch {
		case axes.ValidName(k) != nil:
			why = fmt.Sprintf("cannot be a tag of the run's fingerprint: key %v", axes.ValidName(k))
		case len(v) > 256:
			why = "cannot be a tag of the run's fingerprint: its value is longer than 256 bytes"
		case len(src.tags) > maxFileTags:
			why = fmt.Sprintf("is one of %d configuration keys: a run takes at most %d tags", len(src.tags), maxFileTags)
		default:
			continue
		}
		file := g.files[first.file]
		return &InputError{File: file.Name, Line: configLine(file.Data, k, first.line), Msg: fmt.Sprintf("the configuration key %q %s", clip(k), why)}
	}
	if len(src.tags) == 0 {
		src.tags = nil
	}
	return nil
}

// configLine is the line of the last "key:" line before line, where a
// result's configuration key was set; line itself when there is none.
func configLine(data []byte, key string, line int) int {
	lines := bytes.Split(data, []byte{'\n'})
	for i := min(line, len(lines)) - 1; i >= 0; i-- {
		if bytes.HasPrefix(lines[i], []byte(key+":")) {
			return i + 1
		}
	}
	return line
}
