package report

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The fixture stream holds four runs as fb-pair, fb-sample and fb-analyze
// would write them: a two-case paired comparison, a five-case rounds run
// with every verdict, an interrupted sequential run and a single case.

var testHost = ndjson.Host{OS: "linux", Kernel: "6.18.0-1-amd64", Arch: "amd64",
	CPUModel: "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", CPUs: 2,
	Governor: "performance", GoVersion: "go1.26.8", Hostname: "bench-01"}

var testClock = ndjson.Clock{Backend: "clock_gettime(CLOCK_MONOTONIC_RAW)",
	NominalNS: 1, ObservedStepNS: 30, ReadMedianNS: 48, ReadMinNS: 40}

var testConfig = ndjson.Config{WarmupNS: 100e6, MeasurementNS: 500e6, MaxSamplingNS: 5e9,
	Samples: 50, MinSampleNS: 1e6, MaxIterations: 1 << 30, SliceNS: 6.5e6, Metrics: []string{}}

func testRun(id, tool string, design ndjson.Design, batching string, cases ...string) *ndjson.Run {
	run := &ndjson.Run{RunID: id, Tool: tool, ToolVersion: "0.1.0", Started: "2026-03-14T09:26:53Z",
		Mode: "exec", Design: design, Batching: batching, Seed: 42, Config: testConfig,
		Host: testHost, Clock: testClock}
	for i, name := range cases {
		run.Cases = append(run.Cases, ndjson.Case{Index: i, Name: name,
			Command: "./" + name + " data.bin", Argv: []string{"./" + name, "data.bin"}})
	}
	return run
}

func testAnalysis(id string, complete bool, warnings ...string) *ndjson.Analysis {
	return &ndjson.Analysis{RunID: id, Analyzer: "fb-analyze 0.1.0", Seed: 42, Resamples: 10000,
		ConfidencePct: 95, ThresholdPct: 1, BlockRule: "politis-white", Complete: complete, Warnings: warnings}
}

// testSamples makes units of samples around each case's median, in a
// schedule that rotates the execution order from unit to unit.
func testSamples(seed uint64, units int, iter []int64, medians []float64) []ndjson.Record {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	var recs []ndjson.Record
	n := len(medians)
	for u := range units {
		for pos := range n {
			c := (u + pos) % n
			op := medians[c] * (1 + 0.04*rng.NormFloat64())
			wall := int64(op * float64(iter[c]))
			recs = append(recs, &ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: u*n + pos,
				Iter: iter[c], WallNS: wall, OpNS: float64(wall) / float64(iter[c])})
		}
	}
	return recs
}

func calibration(c int, name string, iter int64, estimate float64) *ndjson.Calibration {
	return &ndjson.Calibration{Case: c, Name: name, Iterations: iter, TargetNS: 6_500_000,
		EstimateNS: estimate, DurationNS: 41_000_000, Batches: 7}
}

func fixtureRecords() []ndjson.Record {
	var recs []ndjson.Record
	recs = append(recs, pairedRun()...)
	recs = append(recs, roundsRun()...)
	recs = append(recs, interruptedRun()...)
	recs = append(recs, singleRun()...)
	return recs
}

// fixtureStream is the fixture as an NDJSON stream.
func fixtureStream(t *testing.T) []byte { return streamOf(t, fixtureRecords()) }

// fixtureRuns loads the fixture stream, so every format test also reads it.
func fixtureRuns(t *testing.T) []*model.Run {
	return loadFixture(t, fixtureStream(t), "fixture.ndjson")
}

// streamOf writes records as an NDJSON stream.
func streamOf(t *testing.T, records []ndjson.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, r := range records {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// loadFixture loads a fixture stream as the named file.
func loadFixture(t *testing.T, stream []byte, name string) []*model.Run {
	t.Helper()
	s, err := LoadStream(ndjson.NewReader(bytes.NewReader(stream), name))
	if err != nil {
		t.Fatal(err)
	}
	s.Spell(flags)
	return s.Runs
}
