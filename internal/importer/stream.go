package importer

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Unknown is recorded for every host fact the source does not hold.
const Unknown = "unknown"

// UnknownHost is the fingerprint of a run whose host is not known.
var UnknownHost = ndjson.Host{OS: Unknown, Kernel: Unknown, Arch: Unknown, CPUModel: Unknown,
	Governor: Unknown, GoVersion: Unknown, Hostname: Unknown}

// Batching of an imported run whose every sample is one run of its
// command (hyperfine) or whose batches all have one size.
const batching = "shared-iterations"

// build turns a checked source into records: the run, every sample in
// the order the runs happened, and the end.
func build(src *source, file string, opt Options) []ndjson.Record {
	run := runRecord(src, opt)
	run.RunID = runID(src.ident, run)
	recs := []ndjson.Record{run}
	seq := 0
	for c, b := range src.benchmarks {
		for unit, t := range b.runs {
			recs = append(recs, sample(src, t, c, unit, seq))
			seq++
		}
	}
	return append(recs, endRecord(src, run.RunID))
}

// sample is one recorded run or batch. A self-timed source's batch time
// is its operations times its time per operation: the wall time of the
// batch is not in the file, and the sample's wall_ns is that product.
func sample(src *source, t timing, c, unit, seq int) *ndjson.Sample {
	batch := t.ns * float64(t.iter)
	s := &ndjson.Sample{Case: c, Unit: unit, Seq: seq, Iter: t.iter, WallNS: int64(math.Round(batch)), OpNS: t.ns, Axes: t.axes}
	if src.timer.KindOf() == ndjson.TimerSelf {
		s.SelfNS = &batch
	}
	return s
}

// runRecord describes the imported run.
func runRecord(src *source, opt Options) *ndjson.Run {
	run := &ndjson.Run{
		Tool: Tool, ToolVersion: opt.ToolVersion, Started: cmp.Or(src.started, opt.Started),
		Mode: cmp.Or(src.mode, ndjson.ModeExec), Design: ndjson.DesignSequential, Batching: cmp.Or(src.batching, batching),
		Config: ndjson.Config{Samples: slices.Max(counts(src)), MaxIterations: maxIter(src), Metrics: []string{axes.Wall}},
		Host:   host(src.host, opt.Host), Clock: ndjson.Clock{Backend: src.clock},
		Axes:  append(append([]ndjson.AxisInfo{timingAxis(src.timer)}, src.builtin...), declInfos(src)...),
		Timer: src.timer, Tags: tags(src.tags, opt.Tags), Source: src.tool,
	}
	if run.Timer == nil {
		run.Timer = &ndjson.Timer{Kind: ndjson.TimerWall, Note: src.timerNote}
	}
	for _, a := range src.builtin {
		run.Config.Metrics = append(run.Config.Metrics, a.Name)
	}
	for i, b := range src.benchmarks {
		run.Cases = append(run.Cases, ndjson.Case{Index: i, Name: caseName(src, b, i, opt.Names), Command: b.command, Argv: []string{}, Params: b.params})
		run.Config.IgnoreFailure = run.Config.IgnoreFailure || b.failed > 0
	}
	return run
}

// caseName is case i's name: the one given with --name, else the
// source's; for a labelled source (Go benchmarks) the benchmark and its
// label, which --name renames.
func caseName(src *source, b benchmark, i int, names []string) string {
	if src.labels == nil {
		if i < len(names) {
			return names[i]
		}
		return b.name
	}
	label := src.labels[b.label]
	if b.label < len(names) {
		label = names[b.label]
	}
	return strings.TrimSpace(b.command + " " + label)
}

// host is the run's fingerprint: what the file says of its machine,
// then, with --this-host, this machine's facts where the file says
// nothing, else unknown.
func host(file ndjson.Host, given *ndjson.Host) ndjson.Host {
	base := UnknownHost
	if given != nil {
		base = *given
	}
	return ndjson.Host{OS: cmp.Or(file.OS, base.OS), Kernel: cmp.Or(file.Kernel, base.Kernel), Arch: cmp.Or(file.Arch, base.Arch),
		CPUModel: cmp.Or(file.CPUModel, base.CPUModel), CPUs: cmp.Or(file.CPUs, base.CPUs), Governor: cmp.Or(file.Governor, base.Governor),
		GoVersion: cmp.Or(file.GoVersion, base.GoVersion), Hostname: cmp.Or(file.Hostname, base.Hostname)}
}

// tags are the file's fingerprint fields and the user's (--tag), the
// user's winning; nil when there are none.
func tags(file, user map[string]string) map[string]string {
	if len(file) == 0 {
		return user
	}
	out := make(map[string]string, len(file)+len(user))
	for k, v := range file {
		out[k] = v
	}
	for k, v := range user {
		out[k] = v
	}
	return out
}

// timingAxis is the run's timing axis: wall time, or the self-reported
// time of a self-timed source, collected.
func timingAxis(t *ndjson.Timer) ndjson.AxisInfo {
	a, _ := axes.Lookup(axes.Wall)
	if t.KindOf() == ndjson.TimerSelf {
		a = axes.SelfTimeAxis()
	}
	return ndjson.AxisInfo{Name: a.Name, Unit: a.Unit, Family: a.Family, Scope: a.Scope, Attribution: a.Attribution,
		Direction: string(a.Direction), Normalization: string(a.Normalization), Status: string(axes.Collected)}
}

// declInfos describes the source's custom axes.
func declInfos(src *source) []ndjson.AxisInfo {
	out := make([]ndjson.AxisInfo, len(src.decls))
	for i, d := range src.decls {
		out[i] = d.Info()
	}
	return out
}

// endRecord closes the run. The source records nothing outside the timed
// runs, so the elapsed and sampling times are both the sum of the times.
func endRecord(src *source, id string) *ndjson.End {
	var sum int64
	for _, b := range src.benchmarks {
		for _, t := range b.runs {
			sum += int64(math.Round(t.ns * float64(t.iter)))
		}
	}
	n := counts(src)
	return &ndjson.End{RunID: id, Reason: ndjson.EndCompleted, Units: slices.Min(n), Samples: n, ElapsedNS: sum, SamplingNS: sum}
}

// counts is the number of runs of each benchmark.
func counts(src *source) []int {
	n := make([]int, len(src.benchmarks))
	for i, b := range src.benchmarks {
		n[i] = len(b.runs)
	}
	return n
}

// maxIter is the largest batch of the source.
func maxIter(src *source) int64 {
	var most int64 = 1
	for _, b := range src.benchmarks {
		for _, t := range b.runs {
			most = max(most, t.iter)
		}
	}
	return most
}

// warnings say what the stream keeps that the analysis will treat
// specially: failed runs, zero times, uneven run counts, repeated names.
func warnings(src *source, run *ndjson.Run, file string, spell field.Names) []string {
	w := slices.Clone(src.warnings)
	for i, b := range src.benchmarks {
		name := run.Cases[i].Name
		if b.failed > 0 {
			w = append(w, fmt.Sprintf("%s: %d of %d runs of %q exited non-zero or were killed (%s): their times are kept and config.ignore_failure is set",
				file, b.failed, len(b.runs), name, src.failed))
		}
		if z := b.zeros(); z > 0 {
			w = append(w, fmt.Sprintf("%s: %d of %d times of %q are 0: %s", file, z, len(b.runs), name, src.zero))
		}
		if j := slices.IndexFunc(run.Cases[:i], func(c ndjson.Case) bool { return c.Name == name }); j >= 0 {
			w = append(w, fmt.Sprintf("%s: cases %d and %d are both named %q: fb-analyze %s matches cases by name; rename them with %s",
				file, j, i, name, spell.Spell(analyzeBaseline), spell.Spell(FieldNames)))
		}
	}
	if n := counts(src); slices.Min(n) != slices.Max(n) {
		w = append(w, fmt.Sprintf("%s: the %s ran %v times: fb-analyze compares the cases of a sequential run on the first %d runs of each", file, unitWord(src), n, slices.Min(n)))
	}
	return w
}

// unitWord names what the source's cases are, for messages.
func unitWord(src *source) string {
	if src.tool == "hyperfine" {
		return "commands"
	}
	return "cases"
}
