package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestTukey(t *testing.T) {
	cases := []struct {
		x    []float64
		want Outliers
	}{
		// q1 = 2, q3 = 4, IQR 2: inner fences -1 and 7, outer -4 and 10;
		// 100 > 10 is high severe.
		{[]float64{1, 2, 3, 4, 100}, Outliers{HighSevere: 1}},
		// sorted, n = 9: q1 = x[2] = 5, q3 = x[6] = 9, IQR 4.
		// inner fences 5-6 = -1 and 9+6 = 15, outer 5-12 = -7 and 9+12 = 21.
		// -20 < -7 severe, -2 in [-7,-1) mild, 16 in (15,21] mild, 30 > 21 severe.
		{[]float64{30, -20, -2, 5, 6, 7, 8, 9, 16}, Outliers{1, 1, 1, 1}},
		// the same quartiles with -1 and 15 exactly on the inner fences:
		// fences are exclusive, so only the severe ones count.
		{[]float64{-20, -1, 5, 6, 7, 8, 9, 15, 30}, Outliers{LowSevere: 1, HighSevere: 1}},
		{nil, Outliers{}},
	}
	for _, c := range cases {
		if got := Tukey(c.x); got != c.want {
			t.Errorf("Tukey(%v) = %+v, want %+v", c.x, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	got := Summarize([]float64{3, 1, 100, 2, 4})
	// from the hand-computed values in TestPercentile and TestMeanSDMAD;
	// p99: h = 4*0.99 = 3.96 -> 4 + 0.96*96 = 96.16.
	want := Summary{
		N: 5, Min: 1, Max: 100, Mean: 22, Median: 3, P95: 80.8, P99: 96.16,
		SD: math.Sqrt(1902.5), MAD: 1, CVPct: 100 * math.Sqrt(1902.5) / 22,
		Outliers: Outliers{HighSevere: 1},
	}
	// time order 3 1 100 2 4, m = 22, devs -19 -21 78 -20 -18:
	// num = 399 - 1638 - 1560 + 360 = -2439, den = 7610
	want.Lag1 = -2439.0 / 7610
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"Min", got.Min, want.Min}, {"Max", got.Max, want.Max},
		{"Mean", got.Mean, want.Mean}, {"Median", got.Median, want.Median},
		{"P95", got.P95, want.P95}, {"P99", got.P99, want.P99},
		{"SD", got.SD, want.SD}, {"MAD", got.MAD, want.MAD},
		{"CVPct", got.CVPct, want.CVPct}, {"Lag1", got.Lag1, want.Lag1},
	} {
		if !near(f.got, f.want, 1e-9) {
			t.Errorf("%s = %g, want %g", f.name, f.got, f.want)
		}
	}
	if got.N != 5 || got.Outliers != want.Outliers {
		t.Errorf("N %d outliers %+v, want 5 and %+v", got.N, got.Outliers, want.Outliers)
	}
	if z := Summarize(nil); z != (Summary{}) {
		t.Errorf("Summarize(nil) = %+v, want zero Summary", z)
	}
	if z := Summarize([]float64{-1, 1}); z.CVPct != 0 {
		t.Errorf("CVPct with zero mean = %g, want 0", z.CVPct)
	}
}

// Summarize computes everything from one sorted copy; it must agree bit
// for bit with the statistics computed one by one.
func TestSummarizeMatchesParts(t *testing.T) {
	x := ar1(rand.New(rand.NewPCG(12, 34)), 10_001, 0.5, 1)
	x[17], x[4000] = 40, -35 // outliers for the fences
	s, sorted := Summarize(x), sortedCopy(x)
	if s.Median != Median(x) || s.MAD != MAD(x) || s.Outliers != Tukey(x) ||
		s.P95 != Percentile(sorted, 95) || s.Min != slices.Min(x) || s.Max != slices.Max(x) {
		t.Errorf("Summarize %+v disagrees with Median %v, MAD %v, Tukey %+v", s, Median(x), MAD(x), Tukey(x))
	}
}
