package importer

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Unknown is recorded for every host fact the source does not hold.
const Unknown = "unknown"

// UnknownHost is the fingerprint of a run whose host is not known.
var UnknownHost = ndjson.Host{OS: Unknown, Kernel: Unknown, Arch: Unknown, CPUModel: Unknown,
	Governor: Unknown, GoVersion: Unknown, Hostname: Unknown}

// Batching of an imported run: every sample is one run of its command.
const batching = "shared-iterations"

// build turns a checked source into records: the run, every sample in
// the order the runs happened, and the end.
func build(src *source, file string, data []byte, opt Options) *Result {
	run := runRecord(src, opt)
	run.RunID = runID(data, run)
	res := &Result{Records: []ndjson.Record{run}, Warnings: warnings(src, run, file)}
	seq := 0
	for c, b := range src.benchmarks {
		for unit, ns := range b.times {
			res.Records = append(res.Records, &ndjson.Sample{Case: c, Unit: unit, Seq: seq, Iter: 1, WallNS: ns, OpNS: float64(ns)})
			seq++
		}
	}
	res.Records = append(res.Records, endRecord(src, run.RunID))
	return res
}

// runRecord describes the imported run.
func runRecord(src *source, opt Options) *ndjson.Run {
	host := UnknownHost
	if opt.Host != nil {
		host = *opt.Host
	}
	run := &ndjson.Run{
		Tool: Tool, ToolVersion: opt.ToolVersion, Started: opt.Started,
		Mode: "exec", Design: ndjson.DesignSequential, Batching: batching,
		Config: ndjson.Config{Samples: slices.Max(counts(src)), MaxIterations: 1, Metrics: []string{axes.Wall}},
		Host:   host, Clock: ndjson.Clock{Backend: src.clock},
		Axes:  []ndjson.AxisInfo{wallAxis()},
		Timer: &ndjson.Timer{Kind: ndjson.TimerWall, Note: src.timerNote},
		Tags:  opt.Tags, Source: src.tool,
	}
	for i, b := range src.benchmarks {
		name := b.name
		if i < len(opt.Names) {
			name = opt.Names[i]
		}
		run.Cases = append(run.Cases, ndjson.Case{Index: i, Name: name, Command: b.command, Argv: []string{}, Params: b.params})
		run.Config.IgnoreFailure = run.Config.IgnoreFailure || b.failed > 0
	}
	return run
}

// wallAxis is the catalogue's wall time, collected.
func wallAxis() ndjson.AxisInfo {
	w, _ := axes.Lookup(axes.Wall)
	return ndjson.AxisInfo{Name: w.Name, Unit: w.Unit, Family: w.Family, Scope: w.Scope, Attribution: w.Attribution,
		Direction: string(w.Direction), Normalization: string(w.Normalization), Status: string(axes.Collected)}
}

// endRecord closes the run. The source records nothing outside the timed
// runs, so the elapsed and sampling times are both the sum of the times.
func endRecord(src *source, id string) *ndjson.End {
	var sum int64
	for _, b := range src.benchmarks {
		for _, t := range b.times {
			sum += t
		}
	}
	n := counts(src)
	return &ndjson.End{RunID: id, Reason: ndjson.EndCompleted, Units: slices.Min(n), Samples: n, ElapsedNS: sum, SamplingNS: sum}
}

// counts is the number of runs of each benchmark.
func counts(src *source) []int {
	n := make([]int, len(src.benchmarks))
	for i, b := range src.benchmarks {
		n[i] = len(b.times)
	}
	return n
}

// warnings say what the stream keeps that the analysis will treat
// specially: failed runs, zero times, uneven run counts, repeated names.
func warnings(src *source, run *ndjson.Run, file string) []string {
	var w []string
	for i, b := range src.benchmarks {
		name := run.Cases[i].Name
		if b.failed > 0 {
			w = append(w, fmt.Sprintf("%s: %d of %d runs of %q exited non-zero or were killed (%s): their times are kept and config.ignore_failure is set",
				file, b.failed, len(b.times), name, src.failed))
		}
		if z := b.zeros(); z > 0 {
			w = append(w, fmt.Sprintf("%s: %d of %d times of %q are 0: %s", file, z, len(b.times), name, src.zero))
		}
		if j := slices.IndexFunc(run.Cases[:i], func(c ndjson.Case) bool { return c.Name == name }); j >= 0 {
			w = append(w, fmt.Sprintf("%s: cases %d and %d are both named %q: fb-analyze --baseline matches cases by name; rename them with --name", file, j, i, name))
		}
	}
	if n := counts(src); slices.Min(n) != slices.Max(n) {
		w = append(w, fmt.Sprintf("%s: the commands ran %v times: fb-analyze compares the cases of a sequential run on the first %d runs of each", file, n, slices.Min(n)))
	}
	return w
}
