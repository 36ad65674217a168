package recorder

import "math/bits"

// splitmix is SplitMix64 (Steele, Lea and Flood 2014): a 64-bit
// generator whose whole state is one counter, so a benchmark's reservoir
// draws are a fixed function of the recording's seed and the benchmark's
// index, whatever the Go version.
type splitmix struct{ s uint64 }

func (g *splitmix) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// below is uniform on [0, n) for n > 0, by Lemire's multiply-and-reject
// method (2019): no modulo bias.
func (g *splitmix) below(n uint64) uint64 {
	hi, lo := bits.Mul64(g.next(), n)
	if lo < n {
		for thresh := -n % n; lo < thresh; {
			hi, lo = bits.Mul64(g.next(), n)
		}
	}
	return hi
}
