package schedule

import (
	"reflect"
	"testing"
)

func TestPairedBalancedAndShuffled(t *testing.T) {
	for _, n := range []int{10, 11, 50, 51, 1000} {
		for seed := uint64(0); seed < 20; seed++ {
			p := Paired(n, seed)
			ref := 0
			for _, u := range p.Units {
				if len(u) != 2 || u[0] == u[1] || (u[0] != 0 && u[0] != 1) {
					t.Fatalf("bad pair %v", u)
				}
				if u[0] == 0 {
					ref++
				}
			}
			con := n - ref
			if d := ref - con; d < -1 || d > 1 || (n%2 == 0 && d != 0) {
				t.Fatalf("n=%d seed=%d: %d reference-first vs %d contender-first", n, seed, ref, con)
			}
		}
	}
	// Not a fixed alternation: some seed must produce a run of equal orders.
	p := Paired(50, 1)
	runs := 0
	for i := 1; i < len(p.Units); i++ {
		if p.Units[i][0] == p.Units[i-1][0] {
			runs++
		}
	}
	if runs == 0 {
		t.Fatal("orders strictly alternate; they should be shuffled")
	}
}

func TestPairedDeterministic(t *testing.T) {
	if !reflect.DeepEqual(Paired(40, 7), Paired(40, 7)) {
		t.Fatal("same seed, different plan")
	}
	if reflect.DeepEqual(Paired(40, 7), Paired(40, 8)) {
		t.Fatal("different seeds gave the same 40-pair plan")
	}
	// The odd pair is not always given to the same side.
	sides := map[int]bool{}
	for seed := uint64(0); seed < 32; seed++ {
		ref := 0
		for _, u := range Paired(11, seed).Units {
			if u[0] == 0 {
				ref++
			}
		}
		sides[ref] = true
	}
	if !sides[5] || !sides[6] {
		t.Fatalf("odd pair always on one side: %v", sides)
	}
}

func TestRoundsPositionBalance(t *testing.T) {
	for k := 3; k <= 16; k++ {
		n := 3 * k
		p := Rounds(n, k, uint64(k))
		count := make([][]int, k)
		for c := range count {
			count[c] = make([]int, k)
		}
		for _, u := range p.Units {
			if len(u) != k {
				t.Fatalf("round has %d cases, want %d", len(u), k)
			}
			seen := make([]bool, k)
			for pos, c := range u {
				if seen[c] {
					t.Fatalf("case %d twice in round %v", c, u)
				}
				seen[c] = true
				count[c][pos]++
			}
		}
		for c := range count {
			for pos, got := range count[c] {
				if got != 3 {
					t.Fatalf("k=%d: case %d at position %d %d times, want 3", k, c, pos, got)
				}
			}
		}
	}
}

func TestRoundsPartialCycleWithinOne(t *testing.T) {
	k, n := 4, 10
	p := Rounds(n, k, 3)
	if len(p.Units) != n {
		t.Fatalf("%d rounds, want %d", len(p.Units), n)
	}
	for c := 0; c < k; c++ {
		for pos := 0; pos < k; pos++ {
			got := 0
			for _, u := range p.Units {
				if u[pos] == c {
					got++
				}
			}
			if got < n/k || got > n/k+1 {
				t.Fatalf("case %d at position %d %d times in %d rounds", c, pos, got, n)
			}
		}
	}
}

func TestSequentialAndSingle(t *testing.T) {
	p := Sequential(2, 3)
	want := [][]int{{0}, {0}, {1}, {1}, {2}, {2}}
	if !reflect.DeepEqual(p.Units, want) || p.Design != "sequential" {
		t.Fatalf("got %v", p)
	}
	if s := Single(3); len(s.Units) != 3 || s.Units[2][0] != 0 {
		t.Fatalf("got %v", s)
	}
}

func TestAlternating(t *testing.T) {
	for seed := uint64(0); seed < 8; seed++ {
		p := Alternating(7, seed)
		for i, u := range p.Units {
			if len(u) != 2 || u[0]+u[1] != 1 {
				t.Fatalf("seed %d unit %d: %v", seed, i, u)
			}
			if i > 0 && u[0] == p.Units[i-1][0] {
				t.Errorf("seed %d: units %d and %d lead with the same case", seed, i-1, i)
			}
		}
	}
	if Alternating(4, 1).Units[0][0] == Alternating(4, 2).Units[0][0] && Alternating(4, 1).Units[0][0] == Alternating(4, 3).Units[0][0] && Alternating(4, 1).Units[0][0] == Alternating(4, 4).Units[0][0] {
		t.Error("the seed never changes who leads first")
	}
}
