package check

import (
	"bytes"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// testHost is the machine every fixture run was collected on.
var testHost = ndjson.Host{OS: "linux", Arch: "amd64", CPUModel: "Test CPU 3000", CPUs: 2, Kernel: "6.1", Hostname: "ci-1"}

// runRecord is a run of the named cases on testHost.
func runRecord(id string, design ndjson.Design, names ...string) *ndjson.Run {
	r := &ndjson.Run{RunID: id, Tool: "fb-pair", Mode: "exec", Design: design, Host: testHost,
		Axes: []ndjson.AxisInfo{{Name: "wall", Unit: "ns/op", Family: "time"}}}
	for i, n := range names {
		r.Cases = append(r.Cases, ndjson.Case{Index: i, Name: n, Command: "./" + n})
	}
	return r
}

func analysis(id string) *ndjson.Analysis {
	return &ndjson.Analysis{RunID: id, Analyzer: "fb-analyze test", ConfidencePct: 95, ThresholdPct: 1, Complete: true}
}

// paired is a paired comparison of old and new with a time change and
// its interval, in percent.
func paired(id string, change, lo, hi float64, axes ...ndjson.AxisComparison) *ndjson.Comparison {
	return &ndjson.Comparison{RunID: id, Reference: 0, Contender: 1, ReferenceName: "old", ContenderName: "new",
		Design: ndjson.DesignPaired, Pairs: 30, ChangePct: change, ChangeCI: [2]float64{lo, hi}, Axes: axes}
}

// relAxis is an available axis compared by ratio: change and interval in
// percent, the reference median in the axis unit.
func relAxis(name, unit, direction string, ref, change, lo, hi float64) ndjson.AxisComparison {
	return ndjson.AxisComparison{Name: name, Unit: unit, Direction: direction, Available: true, Status: "collected",
		Result: &ndjson.AxisResult{Method: "relative ratio", N: 30, RefMedian: ref, ConMedian: ref * (1 + change/100),
			Change: change, CI: [2]float64{lo, hi}, Verdict: "inconclusive"}}
}

// absAxis is an available axis compared by paired differences, in the
// axis unit.
func absAxis(name, unit string, ref, change, lo, hi float64) ndjson.AxisComparison {
	return ndjson.AxisComparison{Name: name, Unit: unit, Direction: "lower", Available: true, Status: "collected",
		Result: &ndjson.AxisResult{Method: "absolute difference", N: 30, RefMedian: ref, ConMedian: ref + change,
			Change: change, CI: [2]float64{lo, hi}, Verdict: "inconclusive"}}
}

// exactAxis is a deterministic count compared exactly.
func exactAxis(name, direction string, ref, change float64, verdict string) ndjson.AxisComparison {
	return ndjson.AxisComparison{Name: name, Unit: "instructions/op", Direction: direction, Available: true, Status: "collected",
		Result: &ndjson.AxisResult{Method: ndjson.AxisMethodExact, N: 1, RefMedian: ref, ConMedian: ref + change,
			Change: change, CI: [2]float64{change, change}, Verdict: verdict}}
}

// missingAxis is an axis without a value.
func missingAxis(name, unit, status, reason string) ndjson.AxisComparison {
	return ndjson.AxisComparison{Name: name, Unit: unit, Direction: "lower", Status: status, Reason: reason}
}

// baselineCmp is a baseline comparison of case name: the baseline's case
// as reference, the current run's as contender.
func baselineCmp(id string, index int, name string, change, lo, hi float64, axes ...ndjson.AxisComparison) *ndjson.Comparison {
	return &ndjson.Comparison{RunID: id, Reference: index, Contender: index, ReferenceName: name, ContenderName: name, Design: ndjson.DesignIndependent,
		ChangePct: change, ChangeCI: [2]float64{lo, hi}, Normalized: true, Axes: axes}
}

// load writes records as a stream and reads it back with Load.
func load(t *testing.T, recs ...ndjson.Record) []*Run {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	all, err := Load(ndjson.NewReader(&buf, "fixture.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// profile is a noise profile of one record on class with metrics.
func profile(class ndjson.MachineClass, metrics ...ndjson.NoiseMetric) *Profile {
	return &Profile{File: "noise.ndjson", Records: []ndjson.Noise{{Class: class, Invocations: 12, Converged: true, Metrics: metrics}}}
}

// testClass is testHost's machine class; otherClass another one.
var (
	testClass  = ClassOf(testHost)
	otherClass = ndjson.MachineClass{OS: "linux", Arch: "arm64", CPUModel: "Neoverse-N1", CPUs: 4}
)

func change(metric, kase, ref string, noise float64) ndjson.NoiseMetric {
	return ndjson.NoiseMetric{Metric: metric, Kind: ndjson.NoiseChange, Case: kase, Reference: ref, NoisePct: noise, N: 12}
}

func level(metric, kase string, noise float64) ndjson.NoiseMetric {
	return ndjson.NoiseMetric{Metric: metric, Kind: ndjson.NoiseLevel, Case: kase, NoisePct: noise, N: 12}
}

// regressedRun is a paired run of old and new: 10% slower (interval 8 to
// 12%), with memory axes (a peak that grew 5% of 100 MiB, one that grew
// too little to clear the floor, a per-operation allocation that grew,
// an unavailable one, and storage bytes that are not memory) and counts
// (one increased, one not deterministic, one decreased, one unavailable
// that a counter record names).
func regressedRun() []ndjson.Record {
	id := "11111111-aaaa-4bbb-8ccc-000000000001"
	run := runRecord(id, ndjson.DesignPaired, "old", "new")
	cmp := paired(id, 10, 8, 12,
		relAxis("rss_peak", "bytes", "diagnostic", 100<<20, 5, 4, 6),
		relAxis("minor_faults", "faults/op", "lower", 900, 40, 30, 50),
		relAxis("read_bytes", "bytes/op", "lower", 1<<20, 50, 40, 60),
		absAxis("alloc_bytes", "bytes/op", 1000, 100, 80, 120),
		relAxis("live_heap", "bytes", "diagnostic", 8<<20, 0.5, 0.1, 0.9),
		missingAxis("rss_change", "bytes/op", "unsupported_mode", "exec mode: every run is a new process"),
		exactAxis("instructions_sim", "lower", 120000, 1200, "increased"),
		exactAxis("branches_sim", "lower", 5000, 3, "not deterministic"),
		exactAxis("syscalls", "lower", 40, -2, "decreased"),
		missingAxis("cache_refs_sim", "refs/op", "probe_failed", "valgrind not found"),
	)
	run.Axes = append(run.Axes, ndjson.AxisInfo{Name: "cache_refs_sim", Unit: "refs/op", Family: "simulated",
		Comparison: ndjson.AxisMethodExact, Status: "probe_failed", Reason: "valgrind not found"})
	counter := &ndjson.Counter{RunID: id, Case: 0, Name: "old", Axis: "cache_refs_sim", Unit: "refs/op", Status: "probe_failed", Reason: "valgrind not found"}
	return []ndjson.Record{run, counter, analysis(id), cmp}
}

// passingRun is a paired A/A run with nothing outside its window.
func passingRun() []ndjson.Record {
	id := "22222222-aaaa-4bbb-8ccc-000000000002"
	return []ndjson.Record{runRecord(id, ndjson.DesignPaired, "old", "new"), analysis(id),
		paired(id, 0.4, -1.5, 2.3, relAxis("rss_peak", "bytes", "diagnostic", 50<<20, 0.2, -0.5, 0.9))}
}

// baselineRun is a current run compared with an archived baseline whose
// CPU model differs, as the user allowed: a and b, b 7% slower in
// reference-normalized scores.
func baselineRun() []ndjson.Record {
	id := "33333333-aaaa-4bbb-8ccc-000000000003"
	an := analysis(id)
	an.Baseline = &ndjson.Baseline{RunID: "44444444-aaaa-4bbb-8ccc-000000000004", File: "base.ndjson", Normalized: true,
		Allowed: []ndjson.Mismatch{{Field: "host.cpu_model", Baseline: "Old CPU", Current: "Test CPU 3000"}}}
	return []ndjson.Record{runRecord(id, ndjson.DesignPaired, "a", "b"), an,
		baselineCmp(id, 0, "a", 1, -2, 4), baselineCmp(id, 1, "b", 7, 5.5, 8.5)}
}

// singleRun is one case measured alone and analysed without a baseline.
func singleRun() []ndjson.Record {
	id := "55555555-aaaa-4bbb-8ccc-000000000005"
	return []ndjson.Record{runRecord(id, ndjson.DesignSingle, "only"), analysis(id)}
}
