package analyze

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Percentiles of individual spans. The spans of a recording are
// individual observations kept by a retention policy that is uniform over
// them (or a contiguous first or latest run of them), not batches on a
// schedule, so they are resampled independently: the i.i.d. bootstrap of
// the percentile, each resample n spans drawn with replacement. The
// bootstrap is chosen over an order-statistic (binomial) interval because
// the comparison of two recordings needs the replicates themselves: the
// relative change of a percentile is resampled from the two sides'
// independent replicates, so summary and comparison rest on one
// computation. Each recording's benchmark has its own random stream,
// seeded by the analysis seed and its label, so the output is a pure
// function of the input and the options.

// SpanPercentiles are the percentiles a span summary reports, and
// ComparedPercentiles those a span comparison compares.
var (
	SpanPercentiles     = []float64{50, 90, 95, 99, 99.9}
	ComparedPercentiles = []float64{50, 90, 95, 99}
)

// MinSpansBeyond is the evidence rule of span percentiles: percentile p
// of n spans is estimated only when at least 10 of them lie beyond it,
// n·(100−p)/100 ≥ 10: p50 needs 20 spans, p90 100, p95 200, p99 1000,
// p99.9 10000. With fewer, the interval would rest on the few largest
// spans alone and the percentile is "insufficient evidence".
const MinSpansBeyond = 10

// Statuses of a span percentile.
const (
	PercentileOK           = ndjson.SpanOK
	PercentileInsufficient = ndjson.SpanInsufficient
)

// enoughSpans reports whether n spans estimate percentile p by the
// evidence rule, in tenths of a percent so that p99.9 is exact.
func enoughSpans(n int, p float64) bool {
	tenths := int64(math.Round(p * 10))
	return int64(n)*(1000-tenths) >= MinSpansBeyond*1000
}

// percentileReplicates resamples sorted (n values) b times with
// replacement and returns, for each of ps, the b replicate percentiles.
// A resample is represented by how often each sorted value was drawn, so
// its order statistics come from one pass over the counts.
func percentileReplicates(sorted []float64, ps []float64, b int, seed uint64, label string) [][]float64 {
	n := len(sorted)
	out := make([][]float64, len(ps))
	for i := range out {
		out[i] = make([]float64, b)
	}
	if n == 0 {
		return out
	}
	rng := rand.New(rand.NewPCG(seed, labelKey(label)))
	counts := make([]int32, n)
	ranks, at, fracs := type7Ranks(n, ps)
	vals := make([]float64, len(ranks))
	for r := range b {
		clear(counts)
		for range n {
			counts[rng.IntN(n)]++
		}
		orderStatistics(sorted, counts, ranks, vals)
		for i := range ps {
			lo, hi := vals[at[i]], vals[at[i]+1]
			out[i][r] = lo + fracs[i]*(hi-lo)
		}
	}
	return out
}

// type7Ranks lists, for the type-7 percentiles ps of n values, the ranks
// they interpolate between in ascending order without repeats: percentile
// i lies between ranks[at[i]] and ranks[at[i]+1] at fraction fracs[i]
// (the last rank is repeated so that at[i]+1 always exists).
func type7Ranks(n int, ps []float64) (ranks, at []int, fracs []float64) {
	at, fracs = make([]int, len(ps)), make([]float64, len(ps))
	for i, p := range ps {
		h := float64(n-1) * min(max(p, 0), 100) / 100
		lo := int(math.Floor(h))
		fracs[i] = h - float64(lo)
		ranks = append(ranks, lo, min(lo+1, n-1))
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	ranks = append(ranks, ranks[len(ranks)-1])
	for i := range ps {
		h := float64(n-1) * min(max(ps[i], 0), 100) / 100
		at[i], _ = slices.BinarySearch(ranks, int(math.Floor(h)))
	}
	return ranks, at, fracs
}

// orderStatistics sets vals[j] to the value of rank ranks[j] (from 0, in
// nondecreasing order) of the resample that drew sorted[i] counts[i] times.
func orderStatistics(sorted []float64, counts []int32, ranks []int, vals []float64) {
	j, below := 0, 0
	for i, c := range counts {
		below += int(c)
		for j < len(ranks) && ranks[j] < below {
			vals[j] = sorted[i]
			j++
		}
		if j == len(ranks) {
			return
		}
	}
}

// percentileInterval is the equal-tailed percentile interval of
// replicates at confidence conf (percent).
func percentileInterval(reps []float64, conf float64) [2]float64 {
	s := slices.Clone(reps)
	slices.Sort(s)
	tail := (100 - conf) / 2
	return [2]float64{stats.Percentile(s, tail), stats.Percentile(s, 100-tail)}
}

// labelKey hashes a random-stream label (FNV-1a, 64 bits).
func labelKey(label string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(label))
	return h.Sum64()
}
