package schedule

import (
	"slices"
	"testing"
)

// balanced checks that rows are permutations of 0..k-1 in which every
// case takes every position equally often and every ordered pair of
// distinct cases is adjacent equally often, and returns those counts.
func balanced(t *testing.T, k int, rows [][]int) (perPos, perPair int) {
	t.Helper()
	pos := make([][]int, k)
	for c := range pos {
		pos[c] = make([]int, k)
	}
	adj := map[[2]int]int{}
	for _, row := range rows {
		sorted := slices.Sorted(slices.Values(row))
		for i, c := range sorted {
			if c != i {
				t.Fatalf("k=%d: row %v is not a permutation", k, row)
			}
		}
		for p, c := range row {
			pos[c][p]++
			if p > 0 {
				adj[[2]int{row[p-1], c}]++
			}
		}
	}
	perPos, perPair = pos[0][0], adj[[2]int{0, 1}]
	for c := range pos {
		for p := range pos[c] {
			if pos[c][p] != perPos {
				t.Fatalf("k=%d: case %d at position %d %d times, case 0 at 0 %d times", k, c, p, pos[c][p], perPos)
			}
		}
	}
	if len(adj) != k*(k-1) {
		t.Fatalf("k=%d: %d ordered pairs adjacent, want all %d", k, len(adj), k*(k-1))
	}
	for pair, n := range adj {
		if pair[0] == pair[1] || n != perPair {
			t.Fatalf("k=%d: pair %v adjacent %d times, want %d", k, pair, n, perPair)
		}
	}
	return perPos, perPair
}

// TestWilliamsBalance: the row cycle balances positions and first-order
// carryover for every case count the tools allow; odd counts need the
// reversed second cycle.
func TestWilliamsBalance(t *testing.T) {
	for k := 2; k <= 16; k++ {
		rows := Williams(k)
		want := k
		if k%2 == 1 {
			want = 2 * k
		}
		if len(rows) != want {
			t.Fatalf("k=%d: %d rows, want %d", k, len(rows), want)
		}
		perPos, perPair := balanced(t, k, rows)
		if perPos != len(rows)/k || perPair != len(rows)/k {
			t.Errorf("k=%d: %d per position, %d per pair", k, perPos, perPair)
		}
		if k%2 == 1 && k > 2 {
			// the square alone cannot balance carryover
			adj := map[[2]int]int{}
			for _, row := range rows[:k] {
				for p := 1; p < k; p++ {
					adj[[2]int{row[p-1], row[p]}]++
				}
			}
			if len(adj) == k*(k-1) {
				t.Errorf("k=%d: the first cycle alone balanced carryover", k)
			}
		}
	}
}

// TestBlockSupercycle: over one joint supercycle the blocks alternate
// orientation, use every row once forward and once reversed in two
// consecutive blocks, and stay balanced in position and carryover; the
// next supercycle repeats it.
func TestBlockSupercycle(t *testing.T) {
	for k := 2; k <= 16; k++ {
		for _, seed := range []uint64{1, 2, 99} {
			design, cycle := ProcessDesign(k)
			if (k == 2) != (design == ProcessABBA) || (k > 2) != (design == ProcessWilliams) {
				t.Fatalf("k=%d: design %s", k, design)
			}
			rows := make([][]int, cycle)
			for b := range cycle {
				o := Block(k, b, seed)
				rows[b] = o.Order
				if b > 0 && o.Orientation == Block(k, b-1, seed).Orientation {
					t.Fatalf("k=%d seed=%d: blocks %d and %d share orientation %s", k, seed, b-1, b, o.Orientation)
				}
				if b%2 == 1 && !slices.Equal(o.Order, reversed(rows[b-1])) {
					t.Fatalf("k=%d: block %d %v is not block %d %v reversed", k, b, o.Order, b-1, rows[b-1])
				}
				if again := Block(k, b+cycle, seed); !slices.Equal(again.Order, o.Order) || again.Orientation != o.Orientation {
					t.Fatalf("k=%d: block %d differs from block %d a supercycle later", k, b, b+cycle)
				}
			}
			perPos, _ := balanced(t, k, rows)
			if perPos != cycle/k {
				t.Fatalf("k=%d: %d per position over %d blocks", k, perPos, cycle)
			}
		}
	}
}

// TestBlockSeedPicksFirst: the seed chooses the first orientation; both
// occur, and block 0 of two cases is AB or BA accordingly.
func TestBlockSeedPicksFirst(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); seed < 32; seed++ {
		o := Block(2, 0, seed)
		want := []int{0, 1}
		if o.Orientation == OrientBA {
			want = []int{1, 0}
		}
		if !slices.Equal(o.Order, want) {
			t.Fatalf("seed %d: %s with order %v", seed, o.Orientation, o.Order)
		}
		seen[o.Orientation] = true
		seen[Block(5, 0, seed).Orientation] = true
	}
	for _, o := range []string{OrientAB, OrientBA, OrientForward, OrientReverse} {
		if !seen[o] {
			t.Errorf("no seed starts with %s", o)
		}
	}
	if Block(1, 3, 1).Orientation != "" {
		t.Error("one case has an orientation")
	}
}

// TestLedPlans: a block's first unit is its order; the balance of the
// plans it is derived from is kept.
func TestLedPlans(t *testing.T) {
	for _, lead := range [][]int{{0, 1}, {1, 0}} {
		p := PairedLed(11, 7, lead)
		if !slices.Equal(p.Units[0], lead) {
			t.Fatalf("first pair %v, want %v", p.Units[0], lead)
		}
		want := Paired(11, 7)
		if count(p, 0) != count(want, 0) {
			t.Fatalf("reference-first pairs %d, Paired has %d", count(p, 0), count(want, 0))
		}
	}
	lead := []int{2, 0, 3, 1}
	p := RoundsLed(10, 4, 3, lead)
	if len(p.Units) != 10 || !slices.Equal(p.Units[0], lead) {
		t.Fatalf("rounds %v", p.Units)
	}
	for c := range 4 { // the first cycle, lead's rotations: every case once in each position
		seen := map[int]bool{}
		for _, u := range p.Units[:4] {
			seen[slices.Index(u, c)] = true
		}
		if len(seen) != 4 {
			t.Fatalf("case %d in positions %v over the first cycle %v", c, seen, p.Units[:4])
		}
	}
}

func count(p Plan, first int) int {
	n := 0
	for _, u := range p.Units {
		if u[0] == first {
			n++
		}
	}
	return n
}
