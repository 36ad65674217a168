package report

import (
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The environment fixture holds two schema 1.2 runs collected under the
// host tools. The first ran under a held claim and a passed gate, pinned
// to a CPU, with a retake watch that had to repair itself: windows kept
// clean, retaken, paused for a reduced power profile, kept contaminated
// once the retake budget ran out, and diluted to host-wide attribution.
// The second could not obtain the claim, had the watch off, and asked for
// operating conditions on a host whose detectors saw nothing. Environment
// records are computed from the host records by analyze.Environment.

const envRetakeID = "a6d3f1e2-0b4c-4d8e-9f7a-3c5b1d2e4f60"

func envRetakeRun() []ndjson.Record {
	run := testRun(envRetakeID, "fb-pair", ndjson.DesignPaired, "equal-time", "stdlib", "sonic")
	run.Host.CPUs = 4
	run.Config.Watch = &ndjson.WatchConfig{Response: "retake", MaxForeignPct: 10, WindowNS: 50e6,
		MaxRetakes: 2, SettleNS: 250e6, MaxPauseNS: 30e9, RewarmNS: 50e6}
	run.Config.Placement = &ndjson.Placement{CPU: 1, Outcome: "strict", WatchedCPUs: []int{1, 3}}
	run.Config.Conditions = &ndjson.ConditionsConfig{Mode: "pause", RequireNonreducedProfile: true,
		StableNS: 1e9, PollNS: 250e6, MaxPauseNS: 30e9, OnTimeout: "observe"}
	run.Config.Until = &ndjson.Until{Rule: "decision", MaxTimeNS: 20e9, ConfidencePct: 95, ThresholdPct: 1,
		Estimator: "robust", Seed: 1, Resamples: 2000}
	lock := &ndjson.Lock{Tool: "fb-lock", Outcome: ndjson.LockHeld, Scope: "machine",
		Path: "/tmp/host-cpu-claim/machine", WaitedNS: 300e6, TimeoutNS: 30e9, PollNS: 250e6}
	gate := &ndjson.Gate{Outcome: ndjson.GatePassed, WaitedNS: 1_200e6, StableNS: 1e9, TimeoutNS: 60e9,
		PollNS: 100e6, MaxAveragePct: 5, MaxCorePct: 20, Polls: 12, LastAveragePct: 3.1, LastCorePct: 8,
		BusiestCPU: 3, CPUs: 4}
	windows := retakeWindows()
	end := &ndjson.End{RunID: envRetakeID, Reason: ndjson.EndCompleted, Units: 32, Samples: []int{32, 32},
		Retakes: 2, BudgetExhausted: true, ElapsedNS: 3_140_000_000, SamplingNS: 1_020_000_000,
		Until: &ndjson.UntilOutcome{Settled: true, Reason: "settled", Looks: 3, Units: 32, ElapsedNS: 3_140_000_000, ConfidencePct: 99.6875}}
	recs := []ndjson.Record{lock, gate, run,
		calibration(0, "stdlib", 4, 1_615_000), calibration(1, "sonic", 4, 1_380_000)}
	recs = append(recs, interleave(windows, testSamples(5, 32, []int64{4, 4}, []float64{1_612_000, 1_377_000}), 2)...)
	recs = append(recs, end, testAnalysis(envRetakeID, true))
	recs = append(recs, envRetakeAnalysis()...)
	return append(recs, analyze.Environment(run, lock, gate, windows, end))
}

// retakeWindows are ten windows of five pairs, the last one short.
func retakeWindows() []ndjson.Window {
	type spec struct {
		first, units  int
		foreign       float64
		verdict       string
		action        string
		profile       string
		exhausted     bool
		diluted       bool
		pauseNS       int64
		throttleEvent int64
	}
	const clean, dirty, kept = ndjson.WindowClean, ndjson.WindowContaminated, ndjson.ActionKept
	specs := []spec{
		{0, 5, 1.2, clean, kept, "performance", false, false, 0, 0},
		{5, 5, 24.6, dirty, ndjson.ActionRetaken, "performance", false, false, 0, 0},
		{5, 5, 2.0, clean, kept, "performance", false, false, 0, 0},
		{10, 5, 31.4, dirty, ndjson.ActionRetaken, "performance", false, false, 0, 1},
		{10, 5, 3.3, clean, kept, "performance", false, false, 0, 0},
		{15, 5, 2.7, clean, ndjson.ActionPaused, "reduced", false, false, 812_000_000, 0},
		{15, 5, 1.9, clean, kept, "performance", false, false, 0, 0},
		{20, 5, 18.9, dirty, kept, "performance", true, false, 0, 1},
		{25, 5, 4.4, clean, kept, "performance", false, true, 0, 0},
		{30, 2, 6.1, ndjson.WindowUnjudged, kept, "performance", false, false, 0, 1},
	}
	const diluted = 8 // this window and the later ones are host-wide
	events, ms := int64(120), int64(4500)
	windows := make([]ndjson.Window, len(specs))
	for i, s := range specs {
		raw := "performance"
		if s.profile == "reduced" {
			raw = "low-power"
		}
		events += s.throttleEvent
		ms += 40 * s.throttleEvent
		w := ndjson.Window{Index: i, FirstUnit: s.first, Units: s.units, Samples: 2 * s.units,
			WallNS: int64(s.units) * 6_500_000 * 2, Judged: s.verdict != ndjson.WindowUnjudged,
			Attribution: "core_scoped", WatchedCPUs: []int{1, 3}, ForeignPct: s.foreign,
			OwnPct: 50, HostBusyPct: 50 + s.foreign, Verdict: s.verdict, Action: s.action,
			Exhausted: s.exhausted, PauseNS: s.pauseNS, Diluted: s.diluted,
			Conditions: &ndjson.Conditions{ProfileDetector: "platform_profile", Profile: s.profile,
				RawProfile: raw, Degradation: "unknown", ThrottleDetector: "thermal_throttle",
				ThrottleEvents: ptr(events), ThrottleMS: ptr(ms), Acceptable: s.profile != "reduced"}}
		if i >= diluted {
			w.Attribution, w.WatchedCPUs, w.OwnPct, w.HostBusyPct = "host_wide", nil, 25, 25+s.foreign
		}
		if !w.Conditions.Acceptable {
			w.Conditions.Why = "platform profile is reduced (low-power)"
		}
		windows[i] = w
	}
	return windows
}

func envRetakeAnalysis() []ndjson.Record {
	return []ndjson.Record{
		&ndjson.Summary{RunID: envRetakeID, Case: 0, Name: "stdlib", N: 32, Min: 1_498_000, Median: 1_612_000,
			Mean: 1_631_000, P95: 1_745_000, P99: 1_790_000, Max: 1_802_000, SD: 61_300, MAD: 33_800,
			CVPct: 3.76, MeanCI: [2]float64{1_610_000, 1_653_000}, BlockLen: 2,
			Outliers: ndjson.Outliers{HighMild: 1}, Lag1: 0.09, MedianBatchNS: 6_448_000,
			Iterations: 4, FloorNS: 0.25, TimedNS: 206_300_000},
		&ndjson.Summary{RunID: envRetakeID, Case: 1, Name: "sonic", N: 32, Min: 1_301_000, Median: 1_377_000,
			Mean: 1_392_000, P95: 1_488_000, P99: 1_521_000, Max: 1_530_000, SD: 50_100, MAD: 29_900,
			CVPct: 3.6, MeanCI: [2]float64{1_374_000, 1_410_000}, BlockLen: 2,
			Outliers: ndjson.Outliers{LowMild: 1}, Lag1: 0.04, MedianBatchNS: 5_508_000,
			Iterations: 4, FloorNS: 0.25, TimedNS: 176_300_000},
		&ndjson.Comparison{RunID: envRetakeID, Reference: 0, Contender: 1, ReferenceName: "stdlib",
			ContenderName: "sonic", Design: ndjson.DesignPaired, Batching: "equal-time", Pairs: 32,
			MedianSpeedup: 1.168, SpeedupCI: [2]float64{1.149, 1.192},
			ChangePct: -14.6, ChangeCI: [2]float64{-16.1, -13}, MeanDiffNS: -239_000, ConfidencePct: 99.6875,
			ThresholdPct: 1, Verdict: ndjson.VerdictContenderFaster, OrderEffectPct: 0.3,
			ReferenceFirst: 16, ContenderFirst: 16, Lag1: 0.05, BlockLen: 2,
			ContenderWins: 30, ReferenceWins: 2,
			// The robust decision estimate beside the geometric mean.
			Estimator: "robust", Speedup: 1.171, GeoSpeedup: 1.158,
			Geo: &ndjson.GeoMean{ChangePct: -13.6, ChangeCI: [2]float64{-16.0, -11.1}, SpeedupCI: [2]float64{1.125, 1.190}},
			Robust: &ndjson.RobustFit{Rejected: 3, ReferenceSlow: 2, ContenderSlow: 1, ScalePct: 2.41,
				LeaderPct: 1.2, Blocked: true},
			Sequential: &ndjson.Sequential{Rule: "decision", Settled: true, Reason: "settled", Looks: 3, OverallConfidencePct: 95}},
	}
}

const envBusyID = "d2c8e4a0-6f1b-4a3c-b9d7-5e0f2a4c6b81"

// envBusyRun found the claim held by another job, went ahead unserialized
// without a watch, and checked operating conditions that no detector
// could read: every window says so.
func envBusyRun() []ndjson.Record {
	run := testRun(envBusyID, "fb-sample", ndjson.DesignSingle, "", "sha256_block")
	run.Mode = "worker"
	run.Config.Conditions = &ndjson.ConditionsConfig{Mode: "observe"}
	lock := &ndjson.Lock{Tool: "fb-lock", Outcome: ndjson.LockBusy, Scope: "machine",
		Path: "/tmp/host-cpu-claim/machine", WaitedNS: 30e9, TimeoutNS: 30e9, PollNS: 250e6,
		Holders: []string{"pid 4242 fb-pair, machine scope, since 2026-03-14T09:20:11Z"}}
	var windows []ndjson.Window
	for i := range 3 {
		windows = append(windows, ndjson.Window{Index: i, FirstUnit: 10 * i, Units: 10, Samples: 10,
			WallNS: 250_000_000, Attribution: "host_wide", Verdict: ndjson.WindowUnjudged, Action: ndjson.ActionKept,
			Conditions: &ndjson.Conditions{ProfileDetector: "unavailable", Profile: "unknown",
				Degradation: "unknown", ThrottleDetector: "unavailable", Acceptable: true}})
	}
	end := &ndjson.End{RunID: envBusyID, Reason: ndjson.EndCompleted, Units: 30, Samples: []int{30},
		ElapsedNS: 31_400_000_000, SamplingNS: 760_000_000}
	recs := []ndjson.Record{lock, run, calibration(0, "sha256_block", 10_240, 2_405)}
	recs = append(recs, interleave(windows, testSamples(6, 30, []int64{10_240}, []float64{2_410}), 1)...)
	recs = append(recs, end, testAnalysis(envBusyID, true),
		&ndjson.Summary{RunID: envBusyID, Case: 0, Name: "sha256_block", N: 30, Min: 2_254, Median: 2_410,
			Mean: 2_418, P95: 2_571, P99: 2_603, Max: 2_611, SD: 91.4, MAD: 52.3, CVPct: 3.78,
			MeanCI: [2]float64{2_384, 2_452}, BlockLen: 1, Lag1: -0.02, MedianBatchNS: 24_680_000,
			Iterations: 10_240, FloorNS: 1.0 / 10_240, TimedNS: 740_400_000})
	return append(recs, analyze.Environment(run, lock, nil, windows, end))
}

// interleave writes each window record before the samples of its units,
// as the collector does; a window that was not kept has none. perUnit is
// the number of samples in a unit.
func interleave(windows []ndjson.Window, samples []ndjson.Record, perUnit int) []ndjson.Record {
	var recs []ndjson.Record
	for i := range windows {
		w := &windows[i]
		recs = append(recs, w)
		if w.Action == ndjson.ActionKept {
			recs = append(recs, samples[w.FirstUnit*perUnit:(w.FirstUnit+w.Units)*perUnit]...)
		}
	}
	return recs
}

func ptr[T any](v T) *T { return &v }

func envFixtureRecords() []ndjson.Record {
	return append(envRetakeRun(), envBusyRun()...)
}

// envFixtureStream is the environment fixture as an NDJSON stream.
func envFixtureStream(t *testing.T) []byte { return streamOf(t, envFixtureRecords()) }

// envFixtureRuns loads the environment fixture stream.
func envFixtureRuns(t *testing.T) []*model.Run {
	return loadFixture(t, envFixtureStream(t), "fixture-env.ndjson")
}
