package stats

import (
	"math"
	"slices"
)

// blockSums holds what a circular-block resample of a series needs: for
// every start s, the sum of the block of deviations from the series mean
// that begins at s and wraps past the end. A resample joins count blocks
// at uniform starts, count-1 of length block and a last one of length
// last, so it has exactly n observations; its sum is count lookups
// instead of n additions.
//
// Deviations keep the sums small, which keeps them precise, and make a
// constant series resample to exactly its own value.
type blockSums struct {
	center           float64 // mean of the series
	n, block         int
	count, last      int
	full, tail       []float64 // sums of block and last deviations from each start
	floor, ceil      float64   // smallest and largest value of the series
	lengthSquares    float64   // sum of the squared block lengths of one resample
	fullLen, lastLen float64   // block and last as floats
}

// newBlockSums prepares the resamples of x with blocks of length block,
// from the deviations a holds for x.
func newBlockSums(x []float64, a *autocovariance, block int) *blockSums {
	n := len(x)
	block = min(max(block, 1), n)
	count := (n + block - 1) / block
	b := &blockSums{center: a.mean, n: n, block: block, count: count, last: n - (count-1)*block}
	b.fullLen, b.lastLen = float64(b.block), float64(b.last)
	b.lengthSquares = float64(float64(count-1)*float64(block*block)) + float64(b.last*b.last)
	b.floor, b.ceil = slices.Min(x), slices.Max(x)
	if block == 1 {
		b.full, b.tail = a.dev, a.dev
		return b
	}
	prefix := prefixSums(a.dev, block)
	if b.last < block {
		b.tail = windowSums(prefix, n, b.last, make([]float64, n))
	}
	// Each full sum is written over the prefix entry it has just read,
	// which no later sum needs, so the prefix array becomes the sums.
	b.full = windowSums(prefix, n, block, prefix[:n])
	if b.last == block {
		b.tail = b.full
	}
	return b
}

// prefixSums returns the running sums of dev laid end to end with its
// first block-1 values again, so that every wrapped block is a
// difference of two entries.
func prefixSums(dev []float64, block int) []float64 {
	n := len(dev)
	prefix := make([]float64, n+block)
	for i, d := range dev {
		prefix[i+1] = prefix[i] + d
	}
	for i := n; i+1 < len(prefix); i++ {
		prefix[i+1] = prefix[i] + dev[i-n]
	}
	return prefix
}

// windowSums fills sums[s], s < n, with the wrapped sum of length
// consecutive deviations starting at s, and returns it. sums may be the
// start of prefix itself.
func windowSums(prefix []float64, n, length int, sums []float64) []float64 {
	for s := range n {
		sums[s] = prefix[s+length] - prefix[s]
	}
	return sums
}

// variance returns the exact variance of the resample mean over all
// resamples, the circular-block bootstrap's own variance of the mean:
// the blocks are independent and each block sum averages to zero over
// its n equally likely starts.
func (b *blockSums) variance() float64 {
	var full, tail float64
	for s := range b.full {
		full += float64(b.full[s] * b.full[s])
		tail += float64(b.tail[s] * b.tail[s])
	}
	n := float64(b.n)
	return (float64(float64(b.count-1)*full) + tail) / n / float64(n*n)
}

// moment is one resample's mean, as a deviation from the series mean,
// and the variance of that mean estimated from the resample alone.
type moment struct{ mean, variance float64 }

// spread completes a resample from its block sums: sum of all count block
// sums, sq the sum of their squares, last the sum of the last (possibly
// shorter) block. The variance is the plug-in block estimate,
// Σ(A_j - len_j·m)²/n², the spread of the resample's blocks about its mean
// m, which is how the studentized bootstrap measures each resample's own
// uncertainty (Götze and Künsch 1996).
func (b *blockSums) spread(sum, sq, last float64) moment {
	n := float64(b.n)
	m := sum / n
	weighted := float64(b.fullLen*(sum-last)) + float64(b.lastLen*last) // Σ len_j·A_j
	ss := sq - float64(m*(2*weighted-float64(m*b.lengthSquares)))
	return moment{mean: m, variance: math.Max(ss, 0) / float64(n*n)}
}
