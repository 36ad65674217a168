package stats

import (
	"hash/fnv"
	"math/bits"
	"math/rand/v2"
)

// newStream returns the generator for one named statistic: PCG seeded with
// the caller's seed and the 64-bit FNV-1a hash of the label, so separate
// statistics of one analysis draw independent, reproducible streams.
func newStream(seed uint64, label string) *rand.PCG {
	h := fnv.New64a()
	h.Write([]byte(label))
	return rand.NewPCG(seed, h.Sum64())
}

// index returns a uniform integer in [0,n), n > 0, by Lemire's
// multiply-and-reject method on 64-bit draws. rand.IntN takes a 32-bit
// path on 32-bit platforms, so it would not give the same draws
// everywhere; this does.
func index(r *rand.PCG, n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(r.Uint64(), un)
	if lo < un {
		threshold := -un % un
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), un)
		}
	}
	return int(hi)
}
