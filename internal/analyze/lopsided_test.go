package analyze

import (
	"math"
	"testing"
)

func TestBinomialTail(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want float64
	}{
		{10, 0, 1},
		{10, 8, 56.0 / 1024}, // C(10,8)+C(10,9)+C(10,10) = 45+10+1
		{10, 10, 1.0 / 1024},
		{10, 11, 0},
		{2000, 1000, 0.5 + 0.5*0.017839}, // P(X=1000) of Binomial(2000, 1/2) = 0.017839
	} {
		if got := binomialTail(c.n, c.k); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("binomialTail(%d, %d) = %.6f, want %.6f", c.n, c.k, got, c.want)
		}
	}
}

// TestLopsided holds the rejected-pairs warning to a two-sided 1% test,
// also beyond 1074 rejected pairs, where 2^-n underflows.
func TestLopsided(t *testing.T) {
	for _, c := range []struct {
		ref, con int
		side     string
	}{
		{5, 0, ""},           // fewer than 6: never
		{6, 0, ""},           // 6 of 6: tail 1/64, above 0.005
		{0, 9, "contender"},  // tail 1/512
		{20, 5, "reference"}, // tail 0.0020
		{17, 8, ""},          // tail 0.054
		{550, 530, ""},       // tail 0.28
		{1200, 1150, ""},     // tail 0.16, 2350 rejected pairs
		{1300, 1050, "reference"},
	} {
		side, _ := lopsided(c.ref, c.con)
		if side != c.side {
			t.Errorf("lopsided(%d, %d) = %q, want %q", c.ref, c.con, side, c.side)
		}
	}
}
