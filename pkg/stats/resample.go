package stats

import (
	"math"
	"unsafe"
)

// resample draws one circular-block resample with g and returns its
// moment. Series shorter than 2³² (all real ones) take the fast path,
// which gets two block starts from each 64-bit draw.
func (b *blockSums) resample(g *wyrand) moment {
	if uint64(b.n) > math.MaxUint32 {
		return b.resampleLong(g)
	}
	return b.resampleShort(g)
}

// resampleShort is the hot loop of every interval. Each 64-bit draw
// gives two block starts by Lemire's multiply-shift (below), with the
// rejection threshold computed once and the generator's counter held in
// a local, so nothing in the loop goes through memory but the block sums.
// The count-1 full blocks go into two independent accumulator pairs, so
// the additions of one need not wait for the other's; the summation
// order is fixed, so results do not depend on timing.
func (b *blockSums) resampleShort(g *wyrand) moment {
	full, count := b.full, b.count
	n := uint64(len(full))
	base := unsafe.Pointer(unsafe.SliceData(full))
	reject := -uint32(n) % uint32(n) // 2³² mod n
	state := g.state
	var s0, s1, q0, q1 float64
	j := 1
	for ; j+1 < count; j += 2 {
		state += wyIncrement
		r := wyMix(state)
		m0, m1 := (r&0xffffffff)*n, (r>>32)*n
		if uint32(m0) < reject || uint32(m1) < reject {
			m0, state = redraw(m0, n, reject, state)
			m1, state = redraw(m1, n, reject, state)
		}
		a, c := element(base, m0>>32), element(base, m1>>32)
		s0 += a
		q0 += float64(a * a)
		s1 += c
		q1 += float64(c * c)
	}
	g.state = state
	if j < count {
		a := full[below(uint32(g.next()), uint32(n), g)]
		s0 += a
		q0 += float64(a * a)
	}
	last := b.tail[below(uint32(g.next()), uint32(n), g)]
	return b.spread(s0+s1+last, q0+q1+float64(last*last), last)
}

// resampleLong is resampleShort for series of 2³² or more values, one
// block start per 64-bit draw.
func (b *blockSums) resampleLong(g *wyrand) moment {
	n := uint64(len(b.full))
	var sum, sq float64
	for range b.count - 1 {
		a := b.full[g.index(n)]
		sum += a
		sq += float64(a * a)
	}
	last := b.tail[g.index(n)]
	return b.spread(sum+last, sq+float64(last*last), last)
}

// element returns the i-th float64 from base without a bounds check. The
// resampling loop's indices are high halves of v·n with v < 2³², so they
// are below n, the length of the slice at base; skipping the checks saves
// about a tenth of the loop. Race-detector builds verify the pointer
// arithmetic (checkptr).
func element(base unsafe.Pointer, i uint64) float64 {
	return *(*float64)(unsafe.Add(base, i*8))
}
