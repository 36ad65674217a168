package stats

import (
	"hash/fnv"
	"math/bits"
)

// streamKey returns the 64-bit FNV-1a hash of a stream label. Mixed with
// the caller's seed it gives each statistic of one analysis its own
// reproducible random streams.
func streamKey(label string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(label))
	return h.Sum64()
}

// wyrand is Wang Yi's wyrand generator, the one behind the Go runtime's
// cheaprand: a Weyl counter, advanced by an odd constant, multiplied by
// itself xor a second constant, the two halves of the 128-bit product
// folded together. It passes BigCrush and PractRand, costs one multiply
// per 64 bits, and consecutive draws depend on each other only through
// the addition, so the resampling loop never waits on the generator. Its
// arithmetic is exact integer arithmetic, the same on every platform.
type wyrand struct{ state uint64 }

const wyIncrement = 0xa0761d6478bd642f

func (g *wyrand) next() uint64 {
	g.state += wyIncrement
	return wyMix(g.state)
}

// wyMix is wyrand's output function of the counter state.
func wyMix(state uint64) uint64 {
	hi, lo := bits.Mul64(state, state^0xe7037ed1a0b428db)
	return hi ^ lo
}

// mix64 is the SplitMix64 finalizer (Steele, Lea and Flood 2014), a
// bijective 64-bit hash that turns related seeds into unrelated states.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// golden is 2⁶⁴ divided by the golden ratio, SplitMix64's increment.
const golden = 0x9e3779b97f4a7c15

// chunkStream returns the generator for chunk c of the resamples of the
// statistic whose label hashes to key. Its starting state hashes the
// seed, the key and c together, so every chunk has its own stream that
// does not depend on which goroutine runs it or how many run at once.
func chunkStream(seed, key uint64, c int) wyrand {
	return wyrand{state: mix64(seed ^ mix64(key+golden*uint64(c+1)))}
}

// below returns a uniform integer in [0,n), 0 < n < 2³², from 32 random
// bits v by Lemire's multiply-shift: the high half of v·n. The few v that
// would make some results more likely than others (low half below
// 2³² mod n) are redrawn from g, so the draw is exactly uniform.
func below(v, n uint32, g *wyrand) uint32 {
	var m uint64
	m, g.state = redraw(uint64(v)*uint64(n), uint64(n), -n%n, g.state)
	return uint32(m >> 32)
}

// redraw completes Lemire's draw m = v·n on a generator whose counter is
// state: while the low half of m is below reject = 2³² mod n it draws
// v again from the low 32 bits of the next value. It returns the
// accepted product and the advanced state.
func redraw(m, n uint64, reject uint32, state uint64) (uint64, uint64) {
	for uint32(m) < reject {
		state += wyIncrement
		m = uint64(uint32(wyMix(state))) * n
	}
	return m, state
}

// index returns a uniform integer in [0,n), n > 0, by the same method on
// 64-bit draws, for series too long for below.
func (g *wyrand) index(n uint64) uint64 {
	hi, lo := bits.Mul64(g.next(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(g.next(), n)
		}
	}
	return hi
}
