package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ulps returns how many representable doubles lie between a and b.
func ulps(a, b float64) uint64 {
	ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if ia > ib {
		return uint64(ia - ib)
	}
	return uint64(ib - ia)
}

// The portable ln, exp and expm1 must agree with the standard library to
// within a few units in the last place over the ranges timings produce.
func TestPortableMathMatchesStdlib(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	const maxULP = 2
	for range 200_000 {
		x := math.Exp(r.Float64()*200 - 100) // e^-100 .. e^100
		if got, want := ln(x), math.Log(x); ulps(got, want) > maxULP && math.Abs(got-want) > 1e-300 {
			t.Fatalf("ln(%v) = %v, math.Log = %v", x, got, want)
		}
		y := r.Float64()*100 - 50
		if got, want := exp(y), math.Exp(y); ulps(got, want) > maxULP {
			t.Fatalf("exp(%v) = %v, math.Exp = %v", y, got, want)
		}
		for _, z := range []float64{
			(r.Float64() - 0.5) * math.Pow(10, -float64(r.IntN(12))), // near 0
			r.Float64()*20 - 10,
		} {
			if got, want := expm1(z), math.Expm1(z); ulps(got, want) > maxULP {
				t.Fatalf("expm1(%v) = %v, math.Expm1 = %v", z, got, want)
			}
		}
	}
}

func TestPortableMathExactCases(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"ln 1", ln(1), 0},
		{"ln 2", ln(2), math.Ln2},
		{"ln 0.5", ln(0.5), -math.Ln2},
		{"exp 0", exp(0), 1},
		{"exp ln 2", exp(ln(2)), 2},
		{"expm1 -ln 2", expm1(-ln(2)), -0.5},
		{"exp +Inf", exp(math.Inf(1)), math.Inf(1)},
		{"exp -1000", exp(-1000), 0},
		{"ln +Inf", ln(math.Inf(1)), math.Inf(1)},
		{"ln 0", ln(0), math.Inf(-1)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !math.IsNaN(ln(-1)) || !math.IsNaN(exp(math.NaN())) {
		t.Error("ln(-1) and exp(NaN) should be NaN")
	}
}
