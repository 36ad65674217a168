package report

import "github.com/flybench/flybench/pkg/ndjson"

const interruptedID = "e3a8b5c1-90f2-4d7e-b6a4-1c2d3e4f5a6b"

// interruptedRun was stopped with ^C after 17 of 40 samples per case, in
// sequential blocks with shared iterations: everything the report warns about.
func interruptedRun() []ndjson.Record {
	run := testRun(interruptedID, "fb-pair", ndjson.DesignSequential, "shared-iterations", "grep", "rg")
	run.Clock.SubtractNS = 48
	recs := []ndjson.Record{run,
		calibration(0, "grep", 2, 3_412_000), calibration(1, "rg", 2, 3_398_000),
		&ndjson.Sample{Case: 0, Unit: 0, Pos: 0, Seq: 0, Iter: 2, WallNS: 6_824_048, OpNS: 3_412_000},
		&ndjson.Sample{Case: 0, Unit: 1, Pos: 0, Seq: 1, Iter: 2, WallNS: 6_830_048, OpNS: 3_415_000},
		&ndjson.Sample{Case: 1, Unit: 0, Pos: 0, Seq: 2, Iter: 2, WallNS: 6_796_048, OpNS: 3_398_000},
		&ndjson.Sample{Case: 1, Unit: 1, Pos: 0, Seq: 3, Iter: 2, WallNS: 6_790_048, OpNS: 3_395_000},
		&ndjson.End{RunID: interruptedID, Reason: ndjson.EndInterrupted, Error: "received SIGINT",
			Units: 2, Samples: []int{2, 2}, ElapsedNS: 310_000_000, SamplingNS: 27_000_000},
		testAnalysis(interruptedID, false, "run interrupted: 2 of 40 samples per case, intervals are wide"),
	}
	for c, median := range []float64{3_412_000, 3_398_000} {
		recs = append(recs, &ndjson.Summary{RunID: interruptedID, Case: c, Name: run.Cases[c].Name, N: 2,
			Min: median - 1500, Median: median, Mean: median, P95: median + 1350, P99: median + 1470,
			Max: median + 1500, SD: 2121, MAD: 1500, CVPct: 0.06, MeanCI: [2]float64{median - 3000, median + 3000},
			BlockLen: 1, Lag1: 0, MedianBatchNS: 2 * median, Iterations: 2, FloorNS: 24, TimedNS: int64(4 * median)})
	}
	return append(recs, &ndjson.Comparison{RunID: interruptedID, Reference: 0, Contender: 1,
		ReferenceName: "grep", ContenderName: "rg", Design: ndjson.DesignSequential, Batching: "shared-iterations",
		Pairs: 2, GeoSpeedup: 1.004, MedianSpeedup: 1.004, SpeedupCI: [2]float64{0.998, 1.007},
		ChangePct: -0.4, ChangeCI: [2]float64{-0.7, 0.2}, MeanDiffNS: -14_000, ConfidencePct: 95,
		ThresholdPct: 1, Verdict: ndjson.VerdictEquivalent, ReferenceFirst: 2, BlockLen: 1,
		ContenderWins: 2, Warnings: []string{"sequential design: drift between the blocks is not cancelled"}})
}

const singleID = "5f0c9d8e-7a6b-4c3d-8e2f-1a0b9c8d7e6f"

// singleRun is fb-sample timing a nanosecond-scale operation through a worker.
func singleRun() []ndjson.Record {
	run := testRun(singleID, "fb-sample", ndjson.DesignSingle, "", "integer_mix")
	run.Mode = "worker"
	run.Clock = ndjson.Clock{Backend: "clock_gettime(CLOCK_MONOTONIC)", NominalNS: 1,
		ObservedStepNS: 41, ReadMedianNS: 42, ReadMinNS: 41}
	const iter = 16_777_216
	recs := []ndjson.Record{run, calibration(0, "integer_mix", iter, 1.5)}
	recs = append(recs, testSamples(4, 55, []int64{iter}, []float64{1.498})...)
	return append(recs,
		&ndjson.End{RunID: singleID, Reason: ndjson.EndCompleted, Units: 55, Samples: []int{55},
			ElapsedNS: 2_100_000_000, SamplingNS: 1_510_000_000},
		testAnalysis(singleID, true),
		&ndjson.Summary{RunID: singleID, Case: 0, Name: "integer_mix", N: 55, Min: 1.454, Median: 1.498,
			Mean: 1.633, P95: 2.225, P99: 2.784, Max: 2.839, SD: 0.3037, MAD: 0.031, CVPct: 18.6,
			MeanCI: [2]float64{1.561, 1.718}, BlockLen: 4,
			Outliers: ndjson.Outliers{HighMild: 5, HighSevere: 2}, Lag1: 0.47, MedianBatchNS: 25_130_000,
			Iterations: iter, FloorNS: 42.0 / iter, TimedNS: 1_482_000_000},
	)
}
