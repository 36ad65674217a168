package schedule

import "slices"

// Process designs: how the blocks of a run collected in fresh processes
// (--invocations) are ordered.
const (
	ProcessSingle   = "single"
	ProcessABBA     = "ab-ba"
	ProcessWilliams = "williams"
)

// Orientations of a process block.
const (
	OrientAB      = "AB"
	OrientBA      = "BA"
	OrientForward = "forward"
	OrientReverse = "reverse"
)

// BlockOrder is the order and orientation of one process block.
type BlockOrder struct {
	// Order lists the cases in the order their processes start and the
	// block's first pair or round runs them.
	Order       []int
	Orientation string
}

// ProcessDesign names the block design for k cases and the length in
// blocks of its joint supercycle: one case has nothing to balance (1);
// two alternate AB and BA (2); three or more use each row of the Williams
// cycle in two consecutive blocks, forward and reversed (2 × rows).
func ProcessDesign(k int) (string, int) {
	switch k {
	case 1:
		return ProcessSingle, 1
	case 2:
		return ProcessABBA, 2
	}
	return ProcessWilliams, 2 * len(Williams(k))
}

// Block is the order of block b (from 0) of a run of k cases. The
// orientation alternates from block to block and the seed chooses the
// first; for three or more cases the seed also relabels the cases of the
// Williams rows (which keeps their balance), and block b uses row b/2 of
// the cycle in the block's orientation. A block's order depends only on k,
// b and the seed, so a retried block keeps its place in the design.
func Block(k, b int, seed uint64) BlockOrder {
	rng := newRand(seed, 0x70726f63)
	flip := rng.IntN(2) == 1
	if b%2 == 1 {
		flip = !flip
	}
	switch k {
	case 1:
		return BlockOrder{Order: []int{0}}
	case 2:
		if flip {
			return BlockOrder{Order: []int{1, 0}, Orientation: OrientBA}
		}
		return BlockOrder{Order: []int{0, 1}, Orientation: OrientAB}
	}
	label := rng.Perm(k)
	rows := Williams(k)
	row := rows[(b/2)%len(rows)]
	order := make([]int, k)
	for j, c := range row {
		order[j] = label[c]
	}
	if flip {
		return BlockOrder{Order: reversed(order), Orientation: OrientReverse}
	}
	return BlockOrder{Order: order, Orientation: OrientForward}
}

// PairedLed is Paired with its first pair in the order lead: the first
// pair of that order in the shuffled sequence is swapped to the front, so
// the counts of each order are Paired's.
func PairedLed(n int, seed uint64, lead []int) Plan {
	p := Paired(n, seed)
	lead0 := lead[0]
	for i, u := range p.Units {
		if u[0] == lead0 {
			p.Units[0], p.Units[i] = p.Units[i], p.Units[0]
			break
		}
	}
	return p
}

// RoundsLed is Rounds whose first round is lead: the first cycle uses
// lead's k cyclic rotations in shuffled order, lead itself first, so every
// case still takes every position once per cycle; later cycles are
// Rounds' own.
func RoundsLed(n, k int, seed uint64, lead []int) Plan {
	rng := newRand(seed, 0x6c656164)
	shifts := rng.Perm(k)
	i := slices.Index(shifts, 0)
	shifts[0], shifts[i] = shifts[i], shifts[0]
	units := make([][]int, 0, n)
	for _, s := range shifts {
		if len(units) == n {
			break
		}
		round := make([]int, k)
		for p := range round {
			round[p] = lead[(p+s)%k]
		}
		units = append(units, round)
	}
	if rest := n - len(units); rest > 0 {
		units = append(units, Rounds(rest, k, seed).Units...)
	}
	return Plan{Design: "rounds", Units: units}
}
