package refwork

import (
	"strings"
	"testing"
)

func TestWorkIsFixedPerOperation(t *testing.T) {
	for _, tc := range []struct {
		kind string
		unit int64
	}{{"int", IntSteps}, {"mem", MemBytes}} {
		w, err := New(tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		one, three := w.Run(1), w.Run(3)
		if one.Ops != 1 || one.Units != tc.unit || three.Ops != 3 || three.Units != 3*tc.unit {
			t.Fatalf("%s: 1 op did %d units, 3 ops %d; want %d per op", tc.kind, one.Units, three.Units, tc.unit)
		}
		if again := w.Run(1); again.Checksum != one.Checksum {
			t.Fatalf("%s: checksum %x then %x for the same work", tc.kind, one.Checksum, again.Checksum)
		}
	}
}

func TestIntLoopIsXorshift(t *testing.T) {
	// Marsaglia's xorshift64 (13, 7, 17) never reaches 0 from a non-zero
	// state and is a bijection: one step from 1 is 1 ^ 1<<13, then the
	// other two shifts.
	x := uint64(1)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	if got := xorshift(1, 1); got != x {
		t.Fatalf("xorshift(1, 1) = %x, want %x", got, x)
	}
	w, _ := New("int")
	if w.Run(2).Checksum != xorshift(xorshift(0x9e3779b97f4a7c15, IntSteps), IntSteps) {
		t.Fatal("two int operations are not two runs of IntSteps steps")
	}
}

func TestMemBufferOutgrowsCaches(t *testing.T) {
	w, _ := New("mem")
	m := w.(*memWork)
	if len(m.buf)*8 != MemBytes || MemBytes < 64<<20 {
		t.Fatalf("buffer %d bytes, want MemBytes = %d (at least 64 MiB)", len(m.buf)*8, MemBytes)
	}
	// The sum of i·K over the buffer, computed in closed form (mod 2^64).
	n := uint64(len(m.buf))
	if got, want := m.Run(1).Checksum, n*(n-1)/2*0x9e3779b97f4a7c15; got != want {
		t.Fatalf("checksum %x, want %x: the pass did not read every word once", got, want)
	}
}

func TestUnknownWorkload(t *testing.T) {
	if _, err := New("float"); err == nil || !strings.Contains(err.Error(), "use int or mem") {
		t.Fatalf("New(float): %v", err)
	}
}
