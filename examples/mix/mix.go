// Package mix is the workload of the example programs: a fixed amount of
// integer mixing whose cost is proportional to the step count, so two
// programs that differ only in steps differ by a known share of work.
package mix

// Run performs steps rounds of a multiply-xorshift mix and returns the
// result, which callers print so the work cannot be optimized away.
func Run(steps int) uint64 {
	x := uint64(0x9e3779b97f4a7c15)
	for i := 0; i < steps; i++ {
		x ^= x >> 31
		x *= 0xbf58476d1ce4e5b9
		x += uint64(i)
	}
	return x
}
