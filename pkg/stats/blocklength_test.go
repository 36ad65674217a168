package stats

import (
	"math/rand/v2"
	"testing"
)

// Independent data: the correlogram dies at lag 1, M = 2, W₂ = 3, and
// L = n/(1 + n/3) rounds to 3.
func TestBlockLengthIndependentNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(2004, 2009))
	x := ar1(r, 200, 0, 1)
	if got := BlockLength(x); got != 3 {
		t.Errorf("BlockLength(iid normal, n=200) = %d, want 3", got)
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

// Pinned block lengths guard the rule against silent change; they were
// produced by this package when the rule was introduced.
func TestBlockLengthPinned(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct {
		n    int
		phi  float64
		want int
	}{
		{20, 0, 3}, {50, 0.5, 12}, {200, 0.5, 5}, {200, 0.9, 24}, {1000, 0.8, 26}, {5000, 0.95, 99},
	} {
		if got := BlockLength(ar1(r, c.n, c.phi, 1)); got != c.want {
			t.Errorf("BlockLength(AR(1) phi=%g, n=%d) = %d, pinned %d", c.phi, c.n, got, c.want)
		}
	}
}

// The lag-window rule needs the window's weights: M = 4 gives λ = 1, 1,
// 1/2, 0 at lags 1..4, so W = 1 + 2·2.5 = 6 and W₂ = 1 + 2·2.25 = 5.5.
func TestLagWindowWeights(t *testing.T) {
	x := ar1(rand.New(rand.NewPCG(1, 1)), 400, 0.2, 1)
	a := newAutocovariance(x)
	w := newLagWindow(a)
	if w.m != 4 {
		t.Fatalf("bandwidth %d, this series was chosen for M = 4", w.m)
	}
	want := a.at(0) + 2*(a.at(1)+a.at(2)+0.5*a.at(3))
	if w.weight != 6 || w.weight2 != 5.5 || !near(w.variance, want, 1e-15) {
		t.Errorf("W %v W2 %v variance %v, want 6, 5.5 and %v", w.weight, w.weight2, w.variance, want)
	}
	// meanVariance divides by n - W; L = round(400/(1 + 400/5.5)) = 5.
	if v, ok := w.meanVariance(); !ok || !near(v, want/394, 1e-18) || w.blockLength() != 5 {
		t.Errorf("mean variance %v (%v), block %d; want %v and 5", v, ok, w.blockLength(), want/394)
	}
}

// Computing several lags per pass must give every lag bit for bit the
// value a pass of its own gives, so block lengths and intervals do not
// depend on the grouping.
func TestAutocovarianceGroupedLags(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 5, 6, 7, 11, 12, 13, 31, 200, 1000, 20_000} {
		x := ar1(r, n, 0.7, 1)
		a := newAutocovariance(x)
		for k := range min(n, 100) {
			if got, want := a.at(k), lagSum(a.dev, k, 0, 0)/float64(n); got != want {
				t.Fatalf("n=%d lag %d: grouped %v, alone %v", n, k, got, want)
			}
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
