package stats

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMeanInterval100k times 2000 resamples of 100,000 independent
// samples: block length 1, the worst case for the O(n/L) resample.
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
