package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMeanInterval100k times 2000 resamples of 100,000 independent
// samples: the shortest blocks (3), the worst case for the O(n/L)
// resample.
func BenchmarkMeanInterval100k(b *testing.B) {
	x := ar1(rand.New(rand.NewPCG(1, 2)), 100_000, 0, 1)
	boot := Bootstrap{Seed: 1, Resamples: 2000, Confidence: 95}
	block := BlockLength(x)
	for b.Loop() {
		boot.MeanInterval(x, block, "bench")
	}
	b.ReportMetric(float64(block), "block")
}

// BenchmarkMeanInterval100kDrift is the same with drifting (AR(1),
// phi=0.9) samples, whose longer blocks make each resample cheaper.
func BenchmarkMeanInterval100kDrift(b *testing.B) {
	x := ar1(rand.New(rand.NewPCG(1, 2)), 100_000, 0.9, 1)
	boot := Bootstrap{Seed: 1, Resamples: 2000, Confidence: 95}
	block := BlockLength(x)
	for b.Loop() {
		boot.MeanInterval(x, block, "bench")
	}
	b.ReportMetric(float64(block), "block")
}

// BenchmarkBlockLength100k times the block-length rule on drifting data,
// where the correlogram must be followed furthest.
func BenchmarkBlockLength100k(b *testing.B) {
	x := ar1(rand.New(rand.NewPCG(1, 2)), 100_000, 0.9, 1)
	for b.Loop() {
		BlockLength(x)
	}
}

// BenchmarkComparePaired1k times a whole paired comparison of 1000 pairs
// at 2000 resamples.
func BenchmarkComparePaired1k(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	ref, con := pairsFromLogRatios(r, ar1(r, 1000, 0.3, 0.02))
	in := PairedInput{Ref: ref, Con: con}
	boot := Bootstrap{Seed: 1, Resamples: 2000, Confidence: 95}
	for b.Loop() {
		if _, err := ComparePaired(in, boot, 1, "wall"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComparePaired100k is a whole paired comparison at the largest
// sample count the tools expect.
func BenchmarkComparePaired100k(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	ref, con := pairsFromLogRatios(r, ar1(r, 100_000, 0.3, 0.02))
	in := PairedInput{Ref: ref, Con: con}
	boot := Bootstrap{Seed: 1, Resamples: 2000, Confidence: 95}
	for b.Loop() {
		if _, err := ComparePaired(in, boot, 1, "wall"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSummarize100k times the description of one case of the
// largest stream the tools expect.
func BenchmarkSummarize100k(b *testing.B) {
	x := ar1(rand.New(rand.NewPCG(5, 6)), 100_000, 0.5, 1)
	for i := range x {
		x[i] = 1000 + 30*x[i]
	}
	for b.Loop() {
		Summarize(x)
	}
}

// BenchmarkPairedRun100k computes what fb-analyze computes for one paired
// run of 2 cases × 50,000 samples with drift (the synthetic stream of
// make bench): two summaries with their mean intervals and block lengths,
// the batch medians, and the paired comparison.
func BenchmarkPairedRun100k(b *testing.B) {
	const pairs = 50_000
	ref, con := make([]float64, pairs), make([]float64, pairs)
	x := uint64(88172645463325252)
	for u := range pairs {
		drift := 1 + 0.2*float64(u%5000)/5000
		for c, side := range [][]float64{ref, con} {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			side[u] = drift * (1000 + 30*float64(c) + float64(x%100))
		}
	}
	boot := Bootstrap{Seed: 1, Resamples: 2000, Confidence: 95}
	for b.Loop() {
		for c, side := range [][]float64{ref, con} {
			Summarize(side)
			Median(side)
			boot.MeanInterval(side, BlockLength(side), fmt.Sprint("mean/", c))
		}
		if _, err := ComparePaired(PairedInput{Ref: ref, Con: con}, boot, 1, "compare/0/1"); err != nil {
			b.Fatal(err)
		}
	}
}
