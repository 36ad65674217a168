// Package recfixture builds synthetic recordings, as the recorder package
// or fb-record would write them, for the tests of fb-analyze and
// fb-report: three benchmarks with mixed outcomes, a thread CPU axis some
// spans lack (they migrated between threads), a span without wall time.
// Only tests import it.
package recfixture

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Sizes are how many spans each benchmark retains: "get", "put" and
// "scan".
type Sizes [3]int

// Small fits a committed test stream; Large estimates p99 of "get".
var (
	Small = Sizes{240, 120, 40}
	Large = Sizes{2000, 400, 60}
)

// Names are the benchmarks in registration order.
var Names = [3]string{"get", "put", "scan"}

// Recording is a synthetic recording with run_id id. Each benchmark's
// wall times are a deterministic log-normal draw from seed; tailScale
// multiplies every span slower than the benchmark's 90th percentile
// (1.2 makes p95 and p99 20% slower and leaves p50 alone). "put" spans
// carry thread_cpu except every 7th, which migrated; the last "scan" span
// has no wall_ns. Outcomes: every 50th span fails, every 97th times out,
// every 211th is cancelled. The recording_end counts twice the retained
// spans as observed (reservoir retention).
func Recording(id string, sizes Sizes, tailScale float64, seed uint64) []ndjson.Record {
	rec := &ndjson.Recording{RunID: id, Tool: "fb-record", ToolVersion: "0.1.0", Started: "2026-03-14T09:26:53Z",
		Source: "recorder", SampleSemantics: ndjson.SampleSemanticsIndividualSpan,
		Retention: ndjson.Retention{Policy: ndjson.RetainReservoir, Capacity: 4096, Seed: 7},
		Axes: []ndjson.AxisInfo{
			{Name: "wall", Unit: "ns", Family: "time", Scope: "span", Attribution: "exact_window", Direction: "lower", Normalization: "absolute", Status: "collected"},
			{Name: "thread_cpu", Unit: "ns", Family: "rusage", Scope: "thread", Attribution: "exact_window", Direction: "lower", Normalization: "absolute", Status: "collected"},
		},
		Host:  ndjson.Host{OS: "linux", Kernel: "6.18.0-1-amd64", Arch: "amd64", CPUModel: "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", CPUs: 2, GoVersion: "go1.26.8"},
		Clock: ndjson.Clock{Backend: "clock_gettime(CLOCK_MONOTONIC)", NominalNS: 1, ObservedStepNS: 30, ReadMedianNS: 48, ReadMinNS: 40}}
	for i, n := range Names {
		rec.Benchmarks = append(rec.Benchmarks, ndjson.RecordingBenchmark{Index: i, Name: n})
	}
	recs := []ndjson.Record{rec}
	end := &ndjson.RecordingEnd{RunID: id, Reason: "stopped", ElapsedNS: 5_000_000_000}
	for b := range Names {
		spans := benchmarkSpans(id, b, sizes[b], tailScale, seed)
		end.Benchmarks = append(end.Benchmarks, tally(b, spans))
		recs = append(recs, spans...)
	}
	recs = append(recs, &ndjson.ProcessUsage{RunID: id, AtNS: 1_000_000_000, ProgramCPU: 38.4, ProgramRSS: 31 << 20,
		RecorderCPU: 1.5, RecorderRSS: 9 << 20})
	return append(recs, end)
}

// medians are the benchmarks' typical wall times in ns.
var medians = [3]float64{42_000, 3_210_000, 19_010_000}

func benchmarkSpans(id string, b, n int, tailScale float64, seed uint64) []ndjson.Record {
	rng := rand.New(rand.NewPCG(seed, uint64(b)))
	walls := make([]float64, n)
	for i := range walls {
		walls[i] = medians[b] * math.Exp(0.35*rng.NormFloat64())
	}
	cut := percentile90(walls)
	recs := make([]ndjson.Record, 0, n)
	start := int64(0)
	for i, w := range walls {
		if w > cut {
			w *= tailScale
		}
		s := &ndjson.Span{RunID: id, Benchmark: b, Obs: int64(2*i + 1), Outcome: outcome(i), StartNS: start}
		start += int64(w) / 2
		if !(b == 2 && i == n-1) {
			wall := int64(w)
			s.WallNS = &wall
		}
		s.Axes = map[string]ndjson.AxisValue{"thread_cpu": threadCPU(b, i, w)}
		recs = append(recs, s)
	}
	return recs
}

// threadCPU is a span's thread CPU time: most of its wall time, or for
// every 7th "put" span the status of a span that migrated.
func threadCPU(b, i int, wall float64) ndjson.AxisValue {
	if b == 1 && i%7 == 3 {
		return ndjson.AxisValue{S: "unattributable", R: "the span ended on another OS thread than it began on"}
	}
	return ndjson.Collected(math.Round(wall * 0.8))
}

func outcome(i int) string {
	switch {
	case i%211 == 210:
		return ndjson.OutcomeCancelled
	case i%97 == 96:
		return ndjson.OutcomeTimeout
	case i%50 == 49:
		return ndjson.OutcomeFailure
	}
	return ndjson.OutcomeSuccess
}

// tally counts twice as many spans observed as retained, outcomes in
// proportion, and one unfinished span.
func tally(b int, spans []ndjson.Record) ndjson.BenchmarkTally {
	t := ndjson.BenchmarkTally{Index: b, Retained: int64(len(spans)), Observed: 2 * int64(len(spans)), Unfinished: 1,
		Outcomes: map[string]int64{}}
	t.Omitted = t.Observed - t.Retained
	for _, r := range spans {
		t.Outcomes[r.(*ndjson.Span).Outcome] += 2
	}
	return t
}

// percentile90 is the value a tenth of x lies above (x unchanged).
func percentile90(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)-1-len(s)/10]
}
