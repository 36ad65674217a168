package stats

import (
	"math/rand/v2"
	"testing"
)

func TestBlockLengthIndependentNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(2004, 2009))
	x := ar1(r, 200, 0, 1)
	if got := BlockLength(x); got < 1 || got > 2 {
		t.Errorf("BlockLength(iid normal, n=200) = %d, want 1 or 2", got)
	}
}

func TestBlockLengthAutocorrelated(t *testing.T) {
	r := rand.New(rand.NewPCG(2004, 2009))
	iid := BlockLength(ar1(r, 200, 0, 1))
	strong := BlockLength(ar1(r, 200, 0.9, 1))
	t.Logf("n=200: iid L=%d, AR(1) phi=0.9 L=%d", iid, strong)
	if strong <= 3 || strong <= iid {
		t.Errorf("BlockLength(AR(1) phi=0.9, n=200) = %d, want > 3 and > iid's %d", strong, iid)
	}
}

func TestBlockLengthFallbackAndClamp(t *testing.T) {
	cases := []struct {
		name string
		x    []float64
		want func(int) bool
	}{
		{"short", []float64{1, 5, 2, 8, 3, 9, 4}, func(l int) bool { return l == 1 }},
		{"constant", []float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, func(l int) bool { return l == 1 }},
		// a pure trend is as autocorrelated as data gets; n/4 = 3 caps it.
		{"trend n=12", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, func(l int) bool { return l >= 1 && l <= 3 }},
	}
	for _, c := range cases {
		if got := BlockLength(c.x); !c.want(got) {
			t.Errorf("%s: BlockLength = %d", c.name, got)
		}
	}
}

// The flat-top window is 1 on [0, 1/2], then falls linearly to 0 at 1.
func TestFlatTop(t *testing.T) {
	for _, c := range []struct{ s, want float64 }{
		{0, 1}, {0.5, 1}, {-0.25, 1}, {0.75, 0.5}, {1, 0}, {1.5, 0},
	} {
		if got := flatTop(c.s); got != c.want {
			t.Errorf("flatTop(%g) = %g, want %g", c.s, got, c.want)
		}
	}
}
