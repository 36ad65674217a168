package report

import (
	"math"

	"github.com/flybench/flybench/pkg/ndjson"
)

const pairedID = "1b9f3c2a-4d5e-4f60-8a71-92b3c4d5e6f7"

func pairedRun() []ndjson.Record {
	recs := []ndjson.Record{
		testRun(pairedID, "fb-pair", ndjson.DesignPaired, "equal-time", "old", "new"),
		calibration(0, "old", 3, 2_160_000),
		calibration(1, "new", 3, 1_995_000),
	}
	recs = append(recs, testSamples(1, 50, []int64{3, 3}, []float64{2_153_000, 1_990_000})...)
	return append(recs,
		&ndjson.End{RunID: pairedID, Reason: ndjson.EndCompleted, Units: 50, Samples: []int{50, 50},
			ElapsedNS: 1_204_000_000, SamplingNS: 652_000_000},
		testAnalysis(pairedID, true),
		&ndjson.Summary{RunID: pairedID, Case: 0, Name: "old", N: 50, Min: 2_051_000, Median: 2_153_000,
			Mean: 2_201_000, P95: 2_498_000, P99: 2_611_000, Max: 2_640_000, SD: 92_660, MAD: 41_200,
			CVPct: 4.21, MeanCI: [2]float64{2_170_000, 2_236_000}, BlockLen: 3,
			Outliers: ndjson.Outliers{LowSevere: 1, HighMild: 2}, Lag1: 0.12, MedianBatchNS: 6_460_000,
			Iterations: 3, FloorNS: 1.0 / 3, TimedNS: 323_000_000},
		&ndjson.Summary{RunID: pairedID, Case: 1, Name: "new", N: 50, Min: 1_902_000, Median: 1_990_000,
			Mean: 2_037_000, P95: 2_301_000, P99: 2_398_000, Max: 2_433_000, SD: 80_100, MAD: 38_500,
			CVPct: 3.93, MeanCI: [2]float64{2_010_000, 2_066_000}, BlockLen: 3,
			Outliers: ndjson.Outliers{HighMild: 1}, Lag1: 0.08, MedianBatchNS: 5_970_000,
			Iterations: 3, FloorNS: 1.0 / 3, TimedNS: 298_500_000},
		&ndjson.Comparison{RunID: pairedID, Reference: 0, Contender: 1, ReferenceName: "old",
			ContenderName: "new", Design: ndjson.DesignPaired, Batching: "equal-time", Pairs: 50,
			GeoSpeedup: 1.082, MedianSpeedup: 1.079, SpeedupCI: [2]float64{1.061, 1.103},
			ChangePct: -7.6, ChangeCI: [2]float64{-9.3, -5.7}, MeanDiffNS: -164_300, ConfidencePct: 95,
			ThresholdPct: 1, Verdict: ndjson.VerdictContenderFaster, OrderEffectPct: 0.4,
			ReferenceFirst: 25, ContenderFirst: 25, Lag1: 0.12, BlockLen: 3,
			ContenderWins: 44, ReferenceWins: 6},
	)
}

const roundsID = "7c41e0d9-2b6a-4c8e-9f13-5a7d2e6b8c04"

var roundsCases = []string{"base", "simd", "tasked", "unrolled", "inlined"}

func roundsRun() []ndjson.Record {
	medians := []float64{412_600, 268_900, 455_100, 403_200, 411_900}
	iters := []int64{16, 24, 14, 16, 16}
	recs := []ndjson.Record{testRun(roundsID, "fb-pair", ndjson.DesignRounds, "equal-time", roundsCases...)}
	for c, name := range roundsCases {
		recs = append(recs, calibration(c, name, iters[c], medians[c]))
	}
	recs = append(recs, testSamples(2, 20, iters, medians)...)
	recs = append(recs,
		&ndjson.End{RunID: roundsID, Reason: ndjson.EndCompleted, Units: 20,
			Samples: []int{20, 20, 20, 20, 20}, Retakes: 2, ElapsedNS: 2_950_000_000, SamplingNS: 655_000_000},
		testAnalysis(roundsID, true, "tasked: lag-1 correlation 0.41, intervals use block length 6"))
	for c := range roundsCases {
		recs = append(recs, roundsSummary(c, medians[c], iters[c]))
	}
	return append(recs, roundsComparisons()...)
}

func roundsSummary(c int, median float64, iter int64) *ndjson.Summary {
	cv := []float64{2.31, 1.87, 6.02, 5.44, 2.12}[c]
	lag := []float64{0.05, -0.03, 0.41, 0.22, 0.09}[c]
	at := func(f float64) float64 { return math.Round(median*f*10) / 10 }
	return &ndjson.Summary{RunID: roundsID, Case: c, Name: roundsCases[c], N: 20,
		Min: at(0.962), Median: median, Mean: at(1.008), P95: at(1.041), P99: at(1.063), Max: at(1.071),
		SD: at(cv / 100), MAD: at(0.014), CVPct: cv, MeanCI: [2]float64{at(0.998), at(1.019)}, BlockLen: 2,
		Outliers: ndjson.Outliers{HighMild: c % 3}, Lag1: lag, MedianBatchNS: median * float64(iter),
		Iterations: iter, FloorNS: 48 / float64(iter), TimedNS: int64(20 * median * float64(iter))}
}

func roundsComparisons() []ndjson.Record {
	type row struct {
		geo, med, lo, hi, change, clo, chi, order float64
		verdict                                   ndjson.Verdict
		wins, losses                              int
		warnings                                  []string
	}
	rows := []row{
		{1.534, 1.531, 1.498, 1.571, -34.8, -36.3, -33.2, 0.3, ndjson.VerdictContenderFaster, 20, 0, nil},
		{0.907, 0.911, 0.884, 0.931, 10.3, 7.4, 13.1, -0.6, ndjson.VerdictReferenceFaster, 2, 18, nil},
		{1.023, 1.019, 0.987, 1.061, -2.3, -5.7, 1.3, 2.1, ndjson.VerdictInconclusive, 13, 7,
			[]string{"order effect 2.1% exceeds the threshold: the cases interact through shared state"}},
		{1.002, 1.001, 0.996, 1.008, -0.2, -0.8, 0.4, 0.1, ndjson.VerdictEquivalent, 11, 8, nil},
	}
	var recs []ndjson.Record
	for k, r := range rows {
		recs = append(recs, &ndjson.Comparison{RunID: roundsID, Reference: 0, Contender: k + 1,
			ReferenceName: "base", ContenderName: roundsCases[k+1], Design: ndjson.DesignRounds,
			Batching: "equal-time", Pairs: 20, GeoSpeedup: r.geo, MedianSpeedup: r.med,
			SpeedupCI: [2]float64{r.lo, r.hi}, ChangePct: r.change, ChangeCI: [2]float64{r.clo, r.chi},
			MeanDiffNS: 412_600 * r.change / 100, ConfidencePct: 95, ThresholdPct: 1, Verdict: r.verdict,
			OrderEffectPct: r.order, ReferenceFirst: 10, ContenderFirst: 10, Lag1: 0.07, BlockLen: 2,
			ContenderWins: r.wins, ReferenceWins: r.losses, Ties: 20 - r.wins - r.losses, Warnings: r.warnings})
	}
	return recs
}
