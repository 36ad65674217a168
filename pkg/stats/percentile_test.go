package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestPercentile(t *testing.T) {
	five := []float64{1, 2, 3, 4, 100}
	four := []float64{1, 2, 3, 4}
	cases := []struct {
		x    []float64
		p    float64
		want float64
	}{
		// type 7: h = (n-1)*p/100, interpolate between x[floor h] and the next.
		{five, 0, 1},
		{five, 25, 2},    // h = 4*0.25 = 1 -> x[1]
		{five, 50, 3},    // h = 2 -> x[2]
		{five, 95, 80.8}, // h = 3.8 -> 4 + 0.8*(100-4) = 80.8
		{five, 100, 100}, // h = 4 -> last
		{four, 50, 2.5},  // h = 1.5 -> 2 + 0.5*(3-2)
		{four, 10, 1.3},  // h = 0.3 -> 1 + 0.3*(2-1)
		{four, 75, 3.25}, // h = 2.25 -> 3 + 0.25*(4-3)
		{[]float64{7}, 99, 7},
		{five, -5, 1},    // clamped to 0
		{five, 140, 100}, // clamped to 100
	}
	for _, c := range cases {
		if got := Percentile(c.x, c.p); !near(got, c.want, 1e-12) {
			t.Errorf("Percentile(%v, %g) = %g, want %g", c.x, c.p, got, c.want)
		}
	}
	if got := Percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("Percentile(nil) = %g, want NaN", got)
	}
}

func TestMedianLeavesInputAlone(t *testing.T) {
	x := []float64{100, 3, 1, 4, 2}
	orig := slices.Clone(x)
	if got := Median(x); got != 3 { // sorted 1 2 3 4 100 -> middle 3
		t.Errorf("Median = %g, want 3", got)
	}
	if !slices.Equal(x, orig) {
		t.Errorf("Median modified its input: %v", x)
	}
}

func TestMeanSDMAD(t *testing.T) {
	x := []float64{1, 2, 3, 4, 100}
	// mean = 110/5 = 22
	if got := Mean(x); got != 22 {
		t.Errorf("Mean = %g, want 22", got)
	}
	// deviations -21 -20 -19 -18 78; squares 441+400+361+324+6084 = 7610;
	// 7610/(5-1) = 1902.5
	if got, want := SD(x), math.Sqrt(1902.5); !near(got, want, 1e-12) {
		t.Errorf("SD = %g, want %g", got, want)
	}
	// median 3; |x-3| = 2 1 0 1 97 -> sorted 0 1 1 2 97 -> median 1
	if got := MAD(x); got != 1 {
		t.Errorf("MAD = %g, want 1", got)
	}
	// mean 5; squares 9 1 1 1 0 0 4 16 = 32; 32/7
	y := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	if got, want := SD(y), math.Sqrt(32.0/7); !near(got, want, 1e-12) {
		t.Errorf("SD(%v) = %g, want %g", y, got, want)
	}
	if SD([]float64{5}) != 0 || SD(nil) != 0 {
		t.Error("SD of fewer than two values should be 0")
	}
	if !math.IsNaN(Mean(nil)) {
		t.Error("Mean(nil) should be NaN")
	}
	// A constant series has exactly its value as mean, even for values
	// that do not sum exactly in floating point.
	c := slices.Repeat([]float64{0.1}, 7)
	if Mean(c) != 0.1 || SD(c) != 0 {
		t.Errorf("constant 0.1: Mean %g SD %g, want 0.1 and 0", Mean(c), SD(c))
	}
}

func TestLag1(t *testing.T) {
	cases := []struct {
		x    []float64
		want float64
	}{
		// m = 3, deviations -2 -1 0 1 2:
		// num = (-2)(-1)+(-1)(0)+(0)(1)+(1)(2) = 4, den = 4+1+0+1+4 = 10
		{[]float64{1, 2, 3, 4, 5}, 0.4},
		// m = 0: num = -1-1-1 = -3, den = 4
		{[]float64{1, -1, 1, -1}, -0.75},
		// m = 10/5 = 2, devs -1 1 -1 1 0:
		// num = -1-1-1+0 = -3, den = 1+1+1+1+0 = 4
		{[]float64{1, 3, 1, 3, 2}, -0.75},
		{[]float64{4, 4, 4, 4}, 0}, // zero variance
		{[]float64{1, 2}, 0},       // too short
	}
	for _, c := range cases {
		if got := Lag1(c.x); !near(got, c.want, 1e-12) {
			t.Errorf("Lag1(%v) = %g, want %g", c.x, got, c.want)
		}
	}
}

// Selection must give exactly the percentile a full sort gives, one
// percentile at a time or several at once, on any arrangement: random,
// heavily tied, sorted, reversed, organ pipe, all equal.
func TestSelectPercentileMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	shapes := map[string]func(n int) []float64{
		"random": func(n int) []float64 { return ar1(r, n, 0, 1) },
		"ties": func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(r.IntN(3))
			}
			return x
		},
		"sorted":   func(n int) []float64 { return slices.Sorted(slices.Values(ar1(r, n, 0, 1))) },
		"reversed": func(n int) []float64 { x := slices.Sorted(slices.Values(ar1(r, n, 0, 1))); slices.Reverse(x); return x },
		"organ pipe": func(n int) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = float64(min(i, n-1-i))
			}
			return x
		},
		"equal": func(n int) []float64 { return slices.Repeat([]float64{2.5}, n) },
	}
	for name, shape := range shapes {
		for _, n := range []int{1, 2, 3, 4, 5, 10, 101, 1000, 4096} {
			x := shape(n)
			sorted := sortedCopy(x)
			ps := []float64{0, 1, 25, 33.3, 50, 75, 95, 99, 100}
			all := slices.Clone(x)
			selectPercentiles(all, ps...)
			for _, p := range ps {
				one := slices.Clone(x)
				selectPercentiles(one, p)
				if got, want := Percentile(one, p), Percentile(sorted, p); got != want {
					t.Fatalf("%s n=%d p=%g: selection %v, sort %v", name, n, p, got, want)
				}
				if got, want := Percentile(all, p), Percentile(sorted, p); got != want {
					t.Fatalf("%s n=%d p=%g among %v: selection %v, sort %v", name, n, p, ps, got, want)
				}
			}
		}
	}
}

// Median takes the selection path, or a sort when there is NaN, and
// agrees with the percentile of the sorted data either way.
func TestMedianSelection(t *testing.T) {
	x := ar1(rand.New(rand.NewPCG(5, 6)), 999, 0.3, 1)
	if got, want := Median(x), Percentile(sortedCopy(x), 50); got != want {
		t.Errorf("Median %v, sorted percentile %v", got, want)
	}
	withNaN := []float64{3, math.NaN(), 1, 2}
	if got, want := Median(withNaN), Percentile(sortedCopy(withNaN), 50); got != want {
		t.Errorf("Median with NaN %v, sorted percentile %v", got, want)
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(MAD(nil)) {
		t.Error("Median and MAD of nothing should be NaN")
	}
}
