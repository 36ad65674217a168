package report

import (
	"math"
	"math/rand/v2"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

const axesPairID = "9d2e4f6a-8b1c-4e3d-a5f7-0c6b8d9e1f2a"

const noPMU = "no hardware PMU: perf_event_open returned ENOENT for PERF_TYPE_HARDWARE (virtual machine without a vPMU)"

const intervalMethod = "studentized circular-block bootstrap (percentile-t) of the mean"

// axesPairRun is a paired run on a virtual machine: resource axes and the
// software task clock are collected, the hardware counters are not, and
// /proc/PID/io could not be read for three of arena's runs.
func axesPairRun() []ndjson.Record {
	run := testRun(axesPairID, "fb-pair", ndjson.DesignPaired, "equal-time", "baseline", "arena")
	run.Config.Metrics = []string{"cpu", "rss_peak", "minor_faults", "read_bytes", "cycles", "ipc", "task_clock"}
	ok := axes.Collected
	run.Axes = []ndjson.AxisInfo{axisInfo(axes.Wall, ok, ""), axisInfo("cpu", ok, ""),
		axisInfo("rss_peak", ok, ""), axisInfo("minor_faults", ok, ""), axisInfo("read_bytes", ok, ""),
		axisInfo("cycles", axes.UnsupportedEvent, noPMU), axisInfo("ipc", axes.UnsupportedEvent, noPMU),
		axisInfo("task_clock", ok, "")}
	iters := []int64{2, 2}
	samples := withAxes(testSamples(5, 40, iters, []float64{3_212_000, 2_934_000}), 5, pairAxes)
	recs := []ndjson.Record{run, calibration(0, "baseline", 2, 3_220_000), calibration(1, "arena", 2, 2_941_000)}
	for _, s := range samples {
		recs = append(recs, s)
	}
	analysis := testAnalysis(axesPairID, true)
	analysis.IntervalMethod = intervalMethod
	ref, con := timingSummary(run, samples, 0, 2), timingSummary(run, samples, 1, 2)
	k := &ndjson.Comparison{RunID: axesPairID, Reference: 0, Contender: 1, ReferenceName: "baseline",
		ContenderName: "arena", Design: ndjson.DesignPaired, Batching: "equal-time", Pairs: 40,
		GeoSpeedup: 1.095, MedianSpeedup: 1.094, SpeedupCI: [2]float64{1.085, 1.106},
		ChangePct: -8.7, ChangeCI: [2]float64{-9.6, -7.8}, MeanDiffNS: -279_400, ConfidencePct: 95,
		ThresholdPct: 1, Verdict: ndjson.VerdictContenderFaster, OrderEffectPct: 0.2,
		ReferenceFirst: 20, ContenderFirst: 20, Lag1: 0.06, BlockLen: 2, ContenderWins: 38, ReferenceWins: 2}
	k.Axes = comparisonAxesOf(run, k, ref, con, []axisOutcome{
		{name: "cpu", change: -8.8, lo: -9.9, hi: -7.7, verdict: "contender better"},
		{name: "rss_peak", change: 14.6, lo: 14.4, hi: 14.8, verdict: "diagnostic"},
		{name: "minor_faults", change: -39.0, lo: -39.6, hi: -38.4, verdict: "contender better"},
		{name: "task_clock", change: -8.7, lo: -9.7, hi: -7.6, verdict: "contender better"},
	})
	return append(recs, &ndjson.End{RunID: axesPairID, Reason: ndjson.EndCompleted, Units: 40,
		Samples: []int{40, 40}, ElapsedNS: 1_050_000_000, SamplingNS: 490_000_000}, analysis, ref, con, k)
}

// pairAxes are one sample's axes in the paired run: arena uses more
// memory for far fewer page faults; storage is served from the page cache
// after the first pair.
func pairAxes(s *ndjson.Sample, rng *rand.Rand) (map[string]ndjson.AxisValue, *ndjson.Telemetry) {
	c, iter := s.Case, float64(s.Iter)
	read := ndjson.Collected(0)
	switch {
	case s.Unit == 0:
		read = ndjson.Collected(8192 / iter)
	case c == 1 && (s.Unit == 5 || s.Unit == 17 || s.Unit == 31):
		read = unavailable(axes.ProbeFailed, "/proc/PID/io: no such process (the run was reaped before it was read)")
	}
	vals := map[string]ndjson.AxisValue{
		"cpu":          ndjson.Collected(around(rng, s.OpNS*0.9962, 0.004, 1)),
		"rss_peak":     ndjson.Collected(around(rng, []float64{12_897_484, 14_784_921}[c], 0.002, 4096)),
		"minor_faults": ndjson.Collected(around(rng, []float64{1216, 742}[c], 0.01, 1/iter)),
		"read_bytes":   read,
		"cycles":       unavailable(axes.UnsupportedEvent, ""),
		"ipc":          unavailable(axes.UnsupportedEvent, ""),
		"task_clock":   ndjson.Collected(around(rng, s.OpNS*0.9991, 0.003, 1)),
	}
	return vals, harnessTele(rng, s, 97.2, 21_390_000)
}

// harnessTele is the run's own footprint in one batch: CPU near cpu
// percent, dipping when the host briefly took the core, and a resident
// set that grows slowly from rss bytes.
func harnessTele(rng *rand.Rand, s *ndjson.Sample, cpu, rss float64) *ndjson.Telemetry {
	pct := math.Min(around(rng, cpu, 0.012, 0.1), 100)
	if s.Unit%14 == 9 {
		pct = around(rng, 12, 0.1, 0.1)
	}
	return &ndjson.Telemetry{CPUPct: pct, RSSBytes: int64(rss + float64(s.Unit)*4096*float64(1+s.Case))}
}

const axesRoundsID = "c4f1a2b3-5d6e-4a7b-8c9d-0e1f2a3b4c5d"

const noCounters = "the PMU could not schedule the group: 4 general-purpose counters for 5 events"

var axesRoundsCases = []string{"base", "prefetch", "packed"}

// axesRoundsRun is three cases in shuffled cyclic rounds. prefetch has the
// same wall time as base and quite different counters; packed is faster
// with more cache misses; branch misses found no free counter.
func axesRoundsRun() []ndjson.Record {
	run := testRun(axesRoundsID, "fb-pair", ndjson.DesignRounds, "equal-time", axesRoundsCases...)
	run.Config.Metrics = []string{"cpu", "rss_peak", "major_faults", "involuntary_switches", "ipc", "cache_misses", "branch_misses"}
	ok := axes.Collected
	run.Axes = []ndjson.AxisInfo{axisInfo(axes.Wall, ok, ""), axisInfo("cpu", ok, ""),
		axisInfo("rss_peak", ok, ""), axisInfo("major_faults", ok, ""), axisInfo("involuntary_switches", ok, ""),
		axisInfo("ipc", ok, ""), axisInfo("cache_misses", ok, ""),
		axisInfo("branch_misses", axes.CounterResourcesUnavailable, noCounters)}
	iters := []int64{8, 8, 9}
	medians := []float64{812_400, 809_900, 712_500}
	samples := withAxes(testSamples(6, 24, iters, medians), 6, roundsAxes)
	recs := []ndjson.Record{run}
	for c, name := range axesRoundsCases {
		recs = append(recs, calibration(c, name, iters[c], medians[c]))
	}
	for _, s := range samples {
		recs = append(recs, s)
	}
	analysis := testAnalysis(axesRoundsID, true)
	analysis.IntervalMethod = intervalMethod
	recs = append(recs, &ndjson.End{RunID: axesRoundsID, Reason: ndjson.EndCompleted, Units: 24,
		Samples: []int{24, 24, 24}, ElapsedNS: 1_430_000_000, SamplingNS: 470_000_000}, analysis)
	var sums []*ndjson.Summary
	for c := range axesRoundsCases {
		sums = append(sums, timingSummary(run, samples, c, iters[c]))
		recs = append(recs, sums[c])
	}
	return append(recs, roundsAxisComparisons(run, sums)...)
}

func roundsAxes(s *ndjson.Sample, rng *rand.Rand) (map[string]ndjson.AxisValue, *ndjson.Telemetry) {
	c, iter := s.Case, float64(s.Iter)
	major := 0.0
	if rng.Float64() < 0.08 {
		major = 1 / iter
	}
	vals := map[string]ndjson.AxisValue{
		"cpu":                  ndjson.Collected(around(rng, s.OpNS*0.9978, 0.003, 1)),
		"rss_peak":             ndjson.Collected(around(rng, []float64{50_541_363, 50_960_794, 40_265_318}[c], 0.001, 4096)),
		"major_faults":         ndjson.Collected(major),
		"involuntary_switches": ndjson.Collected(max(around(rng, 2, 0.25, 1), 0) / iter),
		"ipc":                  ndjson.Collected(around(rng, []float64{1.42, 1.58, 1.62}[c], 0.01, 0.0001)),
		"cache_misses":         ndjson.Collected(around(rng, []float64{18_450, 12_290, 19_210}[c], 0.02, 1/iter)),
		"branch_misses":        unavailable(axes.CounterResourcesUnavailable, ""),
	}
	return vals, harnessTele(rng, s, 98.4, 60_817_408)
}

func roundsAxisComparisons(run *ndjson.Run, sums []*ndjson.Summary) []ndjson.Record {
	base := ndjson.Comparison{RunID: axesRoundsID, Reference: 0, ReferenceName: "base", Design: ndjson.DesignRounds,
		Batching: "equal-time", Pairs: 24, ConfidencePct: 95, ThresholdPct: 1, ReferenceFirst: 12,
		ContenderFirst: 12, Lag1: 0.04, BlockLen: 2}
	prefetch, packed := base, base
	prefetch.Contender, prefetch.ContenderName = 1, "prefetch"
	prefetch.GeoSpeedup, prefetch.MedianSpeedup, prefetch.SpeedupCI = 1.003, 1.002, [2]float64{0.996, 1.009}
	prefetch.ChangePct, prefetch.ChangeCI, prefetch.MeanDiffNS = -0.3, [2]float64{-0.9, 0.4}, -2_400
	prefetch.Verdict, prefetch.OrderEffectPct = ndjson.VerdictEquivalent, 0.2
	prefetch.ContenderWins, prefetch.ReferenceWins, prefetch.Ties = 13, 10, 1
	prefetch.Axes = comparisonAxesOf(run, &prefetch, sums[0], sums[1], []axisOutcome{
		{name: "cpu", change: -0.2, lo: -0.8, hi: 0.5, verdict: "practically equivalent"},
		{name: "rss_peak", change: 0.8, lo: 0.5, hi: 1.1, verdict: "diagnostic"},
		{name: "major_faults", abs: true, change: 0.0104, lo: -0.0208, hi: 0.0417, verdict: "inconclusive"},
		{name: "involuntary_switches", change: 0.3, lo: -0.6, hi: 0.9, verdict: "practically equivalent"},
		{name: "ipc", change: 11.2, lo: 9.8, hi: 12.5, verdict: "contender better"},
		{name: "cache_misses", change: -33.4, lo: -35.9, hi: -30.8, verdict: "contender better"},
	})
	packed.Contender, packed.ContenderName = 2, "packed"
	packed.GeoSpeedup, packed.MedianSpeedup, packed.SpeedupCI = 1.140, 1.139, [2]float64{1.125, 1.156}
	packed.ChangePct, packed.ChangeCI, packed.MeanDiffNS = -12.3, [2]float64{-13.5, -11.1}, -99_900
	packed.Verdict, packed.OrderEffectPct = ndjson.VerdictContenderFaster, -0.4
	packed.ContenderWins = 24
	packed.Axes = comparisonAxesOf(run, &packed, sums[0], sums[2], []axisOutcome{
		{name: "cpu", change: -12.1, lo: -13.2, hi: -10.9, verdict: "contender better"},
		{name: "rss_peak", change: -20.3, lo: -20.5, hi: -20.1, verdict: "diagnostic"},
		{name: "major_faults", abs: true, change: -0.0139, lo: -0.0417, hi: 0.0139, verdict: "inconclusive"},
		{name: "involuntary_switches", change: -2.2, lo: -9.8, hi: 5.9, verdict: "inconclusive"},
		{name: "ipc", change: 14.0, lo: 12.6, hi: 15.3, verdict: "contender better"},
		{name: "cache_misses", change: 4.1, lo: 2.2, hi: 6.0, verdict: "reference better"},
	})
	return []ndjson.Record{&prefetch, &packed}
}
