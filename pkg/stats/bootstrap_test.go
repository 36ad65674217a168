package stats

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		b       Bootstrap
		wantErr string
	}{
		{Bootstrap{Resamples: 100, Confidence: 50}, ""},
		{Bootstrap{Resamples: 10000, Confidence: 99.9}, ""},
		{Bootstrap{Resamples: 50, Confidence: 95}, "resamples 50 out of range: use 100 to 10000"},
		{Bootstrap{Resamples: 10001, Confidence: 95}, "resamples 10001"},
		{Bootstrap{Resamples: 1000, Confidence: 99.95}, "confidence 99.95 out of range: use 50 to 99.9"},
		{Bootstrap{Resamples: 1000, Confidence: 0.95}, "confidence 0.95"},
		{Bootstrap{}, "resamples 0"},
	}
	for _, c := range cases {
		err := c.b.Validate()
		switch {
		case c.wantErr == "" && err != nil:
			t.Errorf("%+v: unexpected error %v", c.b, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%+v: error %v, want one containing %q", c.b, err, c.wantErr)
		}
	}
}

// A resample from block sums must equal building the resample explicitly
// from the same block starts: count blocks, wrapping, the last one cut
// short; its variance must be the plug-in block variance
// Σ(A_j - len_j·m)²/n² of the explicit blocks.
func TestResampleMatchesExplicitResample(t *testing.T) {
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}
	center := Mean(x)
	for _, block := range []int{1, 2, 3, 4, 7, 11} {
		bs := newBlockSums(x, newAutocovariance(x), block)
		fast := wyrand{state: uint64(block)}
		slow := fast
		for range 50 {
			got := bs.resample(&fast)
			var values []float64
			var blocks [][]float64
			for _, start := range explicitStarts(&slow, len(x), bs.count) {
				var blk []float64
				for k := 0; k < block && len(values) < len(x); k++ {
					v := x[(start+k)%len(x)]
					values, blk = append(values, v), append(blk, v-center)
				}
				blocks = append(blocks, blk)
			}
			m := Mean(values) - center
			var ss float64
			for _, blk := range blocks {
				var sum float64
				for _, d := range blk {
					sum += d
				}
				ss += (sum - float64(len(blk))*m) * (sum - float64(len(blk))*m)
			}
			n := float64(len(x))
			if !near(got.mean, m, 1e-12) || !near(got.variance, ss/n/n, 1e-12) {
				t.Fatalf("block %d: block sums give mean %g variance %g, explicit resample %g and %g",
					block, got.mean, got.variance, m, ss/n/n)
			}
		}
	}
}

// explicitStarts draws count block starts in the order resampleShort
// does: the full blocks two per 64-bit draw, then any odd one, then the
// last block.
func explicitStarts(g *wyrand, n, count int) []int {
	var starts []int
	pick := func(v uint64) { starts = append(starts, int(below(uint32(v), uint32(n), g))) }
	j := 1
	for ; j+1 < count; j += 2 {
		r := g.next()
		pick(r)
		pick(r >> 32)
	}
	if j < count {
		pick(g.next())
	}
	pick(g.next())
	return starts
}

func TestMeanIntervalDeterminism(t *testing.T) {
	x := ar1(rand.New(rand.NewPCG(5, 5)), 300, 0.3, 1)
	b := testBootstrap
	lo1, hi1 := b.MeanInterval(x, 3, "wall")
	lo2, hi2 := b.MeanInterval(x, 3, "wall")
	if lo1 != lo2 || hi1 != hi2 {
		t.Errorf("same settings gave [%v,%v] then [%v,%v]", lo1, hi1, lo2, hi2)
	}
	other := b
	other.Seed = 2
	if lo, hi := other.MeanInterval(x, 3, "wall"); lo == lo1 && hi == hi1 {
		t.Errorf("seed 2 repeated seed 1's interval [%v,%v]", lo, hi)
	}
	if lo, hi := b.MeanInterval(x, 3, "cpu"); lo == lo1 && hi == hi1 {
		t.Errorf("stream %q repeated stream %q's interval [%v,%v]", "cpu", "wall", lo, hi)
	}
	if m := Mean(x); !(lo1 < m && m < hi1) {
		t.Errorf("interval [%v,%v] excludes the sample mean %v", lo1, hi1, m)
	}
}

func TestMeanIntervalDegenerate(t *testing.T) {
	b := testBootstrap
	// Constant data: every resample mean is exactly the constant.
	if lo, hi := b.MeanInterval([]float64{0.1, 0.1, 0.1, 0.1}, 2, "s"); lo != 0.1 || hi != 0.1 {
		t.Errorf("constant 0.1: interval [%v,%v], want [0.1,0.1]", lo, hi)
	}
	// One block of length n is a rotation of the series: same mean.
	x := []float64{1, 7, 2, 9, 4}
	if lo, hi := b.MeanInterval(x, 5, "s"); !near(lo, 4.6, 1e-12) || !near(hi, 4.6, 1e-12) {
		t.Errorf("block n: interval [%v,%v], want [4.6,4.6]", lo, hi)
	}
	// Wider confidence gives a wider interval from the same replicates.
	lo95, hi95 := b.MeanInterval(x, 1, "s")
	b.Confidence = 60
	lo60, hi60 := b.MeanInterval(x, 1, "s")
	if !(lo95 <= lo60 && hi60 <= hi95 && lo60 < hi60) {
		t.Errorf("60%% interval [%v,%v] not inside 95%% interval [%v,%v]", lo60, hi60, lo95, hi95)
	}
}

// Known values pin the stream derivation, since changing it would
// silently change every published interval: FNV-1a 64-bit of "" is the
// offset basis and of "a" is 0xaf63dc4c8601ec8c; SplitMix64 from state 0
// starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, its finalizer applied to
// one and two golden-ratio increments.
func TestStreamsPinned(t *testing.T) {
	for label, want := range map[string]uint64{"": 0xcbf29ce484222325, "a": 0xaf63dc4c8601ec8c} {
		if got := streamKey(label); got != want {
			t.Errorf("streamKey(%q) = %#x, want %#x", label, got, want)
		}
	}
	two := uint64(golden)
	two += golden
	if a, b := mix64(golden), mix64(two); a != 0xe220a8397b1dcdaf || b != 0x6e789e6aa1b965f4 {
		t.Errorf("SplitMix64 finalizer gives %#x, %#x", a, b)
	}
	g := chunkStream(11, streamKey("a"), 3)
	for i, want := range pinnedChunkDraws {
		if got := g.next(); got != want {
			t.Errorf("chunk 3 of seed 11, stream %q: draw %d is %#x, want %#x", "a", i, got, want)
		}
	}
}

// pinnedChunkDraws were produced by this package; they are integer
// arithmetic, the same on every platform.
var pinnedChunkDraws = []uint64{0xd9815693a124e9f7, 0xd398c2ecc1f9932a}

// Lemire's draw rejects exactly the values that would bias it: for n = 3,
// 2³² mod 3 = 1, so only v = 0 (whose product v·3 has low half 0) is
// redrawn, from the low 32 bits of the generator's next value.
func TestBelow(t *testing.T) {
	g := wyrand{state: 7}
	redraw := wyrand{state: 7}
	want := uint32((uint64(uint32(redraw.next())) * 3) >> 32)
	if got := below(0, 3, &g); got != want {
		t.Errorf("below(0, 3) = %d, want the redraw's %d", got, want)
	}
	for _, c := range []struct{ v, n, want uint32 }{
		{1, 3, 0}, {0xffffffff, 3, 2}, {0x80000000, 3, 1}, {0x55555556, 3, 1}, {0xffffffff, 1, 0},
	} {
		if got := below(c.v, c.n, &wyrand{}); got != c.want {
			t.Errorf("below(%#x, %d) = %d, want %d", c.v, c.n, got, c.want)
		}
	}
	// The 64-bit draw for very long series agrees in range.
	for range 1000 {
		if i := g.index(5); i >= 5 {
			t.Fatalf("index(5) = %d", i)
		}
	}
}

// The replicates must not depend on how many goroutines draw them: each
// chunk has its own stream, so one goroutine drawing every chunk in turn
// gives the same replicates, in the same order, as GOMAXPROCS of them.
func TestReplicatesIndependentOfCores(t *testing.T) {
	x := ar1(rand.New(rand.NewPCG(9, 9)), 5000, 0.2, 1)
	bs := newBlockSums(x, newAutocovariance(x), 3)
	b := Bootstrap{Seed: 5, Resamples: 1000, Confidence: 95}
	if b.Resamples*bs.count < parallelDraws || b.Resamples <= chunkSize {
		t.Fatal("job too small to run concurrently")
	}
	want := make([]moment, b.Resamples)
	for i := range want {
		if i%chunkSize == 0 {
			g := chunkStream(b.Seed, streamKey("s"), i/chunkSize)
			for j := i; j < min(i+chunkSize, len(want)); j++ {
				want[j] = bs.resample(&g)
			}
		}
	}
	lo, hi := b.MeanInterval(x, 3, "s")
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		if got := b.replicates(bs, "s"); !slices.Equal(got, want) {
			t.Errorf("GOMAXPROCS=%d: replicates differ from one goroutine drawing the chunks in order", procs)
		}
		if l, h := b.MeanInterval(x, 3, "s"); l != lo || h != hi {
			t.Errorf("GOMAXPROCS=%d: interval [%v,%v], want [%v,%v]", procs, l, h, lo, hi)
		}
	}
}

// Data that give resamples without spread of their own (all blocks
// equal) must still give a finite interval within the data's range, and
// negatively correlated data, whose flat-top variance can vanish, must
// fall back to the block bootstrap's own variance.
func TestMeanIntervalHardData(t *testing.T) {
	b := testBootstrap
	rare := make([]float64, 50) // 48 zeros, 2 ones: 13% of resamples are all zero
	rare[10], rare[40] = 1, 1
	alternating := make([]float64, 40)
	for i := range alternating {
		alternating[i] = float64(1 - 2*(i%2))
	}
	for _, c := range []struct {
		name string
		x    []float64
	}{
		{"rare events", rare}, {"two values", []float64{1, 3}}, {"alternating", alternating},
		{"three values", []float64{5, 1, 3}},
	} {
		block := BlockLength(c.x)
		lo, hi := b.MeanInterval(c.x, block, "s")
		m := Mean(c.x)
		if math.IsNaN(lo) || math.IsNaN(hi) || lo > m || m > hi || lo < slices.Min(c.x) || hi > slices.Max(c.x) {
			t.Errorf("%s (block %d): interval [%v,%v] for mean %v, want finite, around the mean, within the data",
				c.name, block, lo, hi, m)
		}
	}
}

// MeanIntervalAuto is MeanInterval at BlockLength's choice, bit for bit.
func TestMeanIntervalAutoMatches(t *testing.T) {
	x := make([]float64, 300)
	v := 0.0
	for i := range x {
		v = 0.6*v + float64((i*7919)%101)/50 - 1
		x[i] = 10 + v
	}
	b := Bootstrap{Seed: 3, Resamples: 500, Confidence: 95}
	lo, hi, block := b.MeanIntervalAuto(x, "s")
	wlo, whi := b.MeanInterval(x, BlockLength(x), "s")
	if block != BlockLength(x) || lo != wlo || hi != whi {
		t.Fatalf("auto [%v %v] L=%d, explicit [%v %v] L=%d", lo, hi, block, wlo, whi, BlockLength(x))
	}
}
