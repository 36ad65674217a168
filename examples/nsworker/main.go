// Command nsworker is a flybench worker (man fb-worker(7)) with two
// implementations of one nanosecond-scale operation, the population count
// of a 64-bit word: popcount-loop clears the lowest set bit until none is
// left, popcount-bits calls math/bits.OnesCount64 (one POPCNT instruction
// where the CPU has it). Both read their words from a table, so nothing
// is folded at compile time, and return the sum of the counts, which the
// worker keeps alive after the ending timestamp. empty does nothing and
// measures the harness's floor; nop calls an empty function that is not
// inlined, about a nanosecond.
//
//	printf 'run popcount-bits 1000000\nquit\n' | nsworker
package main

import (
	"math/bits"
	"os"

	"github.com/flybench/flybench/worker"
)

// words is a table of pseudo-random words (a fixed xorshift sequence), a
// power of two long so that indexing it is one AND.
var words [256]uint64

func init() {
	x := uint64(0x9e3779b97f4a7c15)
	for i := range words {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		words[i] = x
	}
}

func popcountLoop(n int) any {
	total := 0
	for i := range n {
		x := words[i&(len(words)-1)]
		for x != 0 {
			x &= x - 1
			total++
		}
	}
	return total
}

func popcountBits(n int) any {
	total := 0
	for i := range n {
		total += bits.OnesCount64(words[i&(len(words)-1)])
	}
	return total
}

//go:noinline
func nop() {}

func main() {
	w := worker.New()
	w.CaseResult("popcount-loop", popcountLoop)
	w.CaseResult("popcount-bits", popcountBits)
	w.Case("empty", func(int) {})
	w.Case("nop", func(n int) {
		for range n {
			nop()
		}
	})
	w.RuntimeAxes()
	os.Exit(w.Main())
}
