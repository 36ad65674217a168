// Package schedule builds the execution orders of a run: which side leads in
// each sample pair, and where each case sits in each multi-way round. Every
// order is a pure function of the case count, the unit count and the seed, so
// a recorded run can be re-planned and checked exactly.
package schedule

import (
	"math/rand/v2"
)

// Plan is the execution order of every unit of a run. Units[u] lists case
// indices in the order they run inside unit u (a sample, a pair or a round).
type Plan struct {
	Design string
	Units  [][]int
}

// Single is one case measured alone: n units of one sample each.
func Single(n int) Plan {
	units := make([][]int, n)
	for i := range units {
		units[i] = []int{0}
	}
	return Plan{Design: "single", Units: units}
}

// Paired orders n adjacent pairs of cases 0 and 1. Exactly half lead with the
// reference (the odd pair, if any, goes to the side the seed picks) and the
// sequence is shuffled, so neither order is tied to a stretch of the run.
func Paired(n int, seed uint64) Plan {
	rng := newRand(seed, 0x70616972)
	refFirst := make([]bool, n)
	half := n / 2
	if n%2 == 1 && rng.IntN(2) == 0 {
		half++
	}
	for i := 0; i < half; i++ {
		refFirst[i] = true
	}
	rng.Shuffle(n, func(i, j int) { refFirst[i], refFirst[j] = refFirst[j], refFirst[i] })
	units := make([][]int, n)
	for i, rf := range refFirst {
		if rf {
			units[i] = []int{0, 1}
		} else {
			units[i] = []int{1, 0}
		}
	}
	return Plan{Design: "paired", Units: units}
}

// Rounds orders n rounds of k cases. Rounds come in cycles of k: each cycle
// takes a fresh random permutation and uses each of its k cyclic rotations
// once, in random order, so within a cycle every case occupies every position
// exactly once. A final partial cycle keeps positions balanced within one round.
func Rounds(n, k int, seed uint64) Plan {
	rng := newRand(seed, 0x726f756e)
	units := make([][]int, 0, n)
	for len(units) < n {
		base := rng.Perm(k)
		shifts := rng.Perm(k)
		for _, s := range shifts {
			if len(units) == n {
				break
			}
			round := make([]int, k)
			for p := range round {
				round[p] = base[(p+s)%k]
			}
			units = append(units, round)
		}
	}
	return Plan{Design: "rounds", Units: units}
}

// Sequential collects case 0's n samples, then case 1's, and so on. It is
// exposed to drift: a case's position in the run is fixed by its index.
func Sequential(n, k int) Plan {
	units := make([][]int, 0, n*k)
	for c := 0; c < k; c++ {
		for i := 0; i < n; i++ {
			units = append(units, []int{c})
		}
	}
	return Plan{Design: "sequential", Units: units}
}

// newRand is a PCG stream fixed by the seed and a per-use constant.
func newRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}

// PairedBlocks orders n adjacent pairs in consecutive blocks of block
// pairs (block even), each holding as many reference-first as
// contender-first pairs in shuffled order, so that a run stopped after
// any whole block is balanced. Runs that sample until a decision use it:
// their length is not known in advance.
func PairedBlocks(n, block int, seed uint64) Plan {
	rng := newRand(seed, 0x626c6f63)
	units := make([][]int, 0, n)
	for len(units) < n {
		refFirst := make([]bool, block)
		for i := range block / 2 {
			refFirst[i] = true
		}
		rng.Shuffle(block, func(i, j int) { refFirst[i], refFirst[j] = refFirst[j], refFirst[i] })
		for _, rf := range refFirst {
			if len(units) == n {
				break
			}
			if rf {
				units = append(units, []int{0, 1})
			} else {
				units = append(units, []int{1, 0})
			}
		}
	}
	return Plan{Design: "paired", Units: units}
}

// Alternating orders n pairs of cases 0 and 1 that alternate which leads,
// the first from the seed: every two consecutive pairs hold both orders.
// A duet run takes it, its leader's CPU going with the order, so that the
// order effect the analysis takes out is the CPUs' difference as well.
func Alternating(n int, seed uint64) Plan {
	first := newRand(seed, 0x64756574).IntN(2)
	units := make([][]int, n)
	for i := range units {
		if (i+first)%2 == 0 {
			units[i] = []int{0, 1}
		} else {
			units[i] = []int{1, 0}
		}
	}
	return Plan{Design: "paired", Units: units}
}
