package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestCompareIndependentExact(t *testing.T) {
	// Constant sides: geo means 20 and 10, so every replicate is
	// ln 20 - ln 10 = ln 2 (to rounding) and the interval has zero width.
	ref := []float64{20, 20, 20, 20, 20, 20}
	con := []float64{10, 10, 10, 10}
	p, err := CompareIndependent(ref, con, testBootstrap, 1, "wall")
	if err != nil {
		t.Fatal(err)
	}
	if !near(p.GeoSpeedup, 2, 1e-12) || p.SpeedupLo != p.GeoSpeedup || p.SpeedupHi != p.GeoSpeedup || !near(p.ChangePct, -50, 1e-10) {
		t.Errorf("speedup %v [%v,%v] change %v, want 2 [2,2] and -50", p.GeoSpeedup, p.SpeedupLo, p.SpeedupHi, p.ChangePct)
	}
	// N is the smaller count; wins are not counted for unequal lengths;
	// mean(con) - mean(ref) = 10 - 20.
	if p.N != 4 || p.ContenderWins != 0 || p.MeanDiff != -10 || p.MedianSpeedup != 2 || p.Verdict != ContenderFaster {
		t.Errorf("got %+v", p)
	}
	if p.Lag1 != 0 || p.OrderEffectPct != 0 || p.RefFirst != 0 {
		t.Errorf("independent comparison set paired-only fields: %+v", p)
	}
}

func TestCompareIndependentWinsAndDeterminism(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	ref, con := pairsFromLogRatios(r, ar1(r, 100, 0.5, 0.05))
	a, err := CompareIndependent(ref, con, testBootstrap, 1, "blocks")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := CompareIndependent(ref, con, testBootstrap, 1, "blocks")
	if a != b {
		t.Errorf("same inputs gave different results:\n%+v\n%+v", a, b)
	}
	if a.ContenderWins+a.ReferenceWins+a.Ties != 100 {
		t.Errorf("equal lengths: wins and ties should cover all 100 indices, got %+v", a)
	}
	// Independent resampling ignores the shared drift the pairs cancel, so
	// its interval must be wider than the paired one on the same data.
	p, _ := ComparePaired(PairedInput{Ref: ref, Con: con}, testBootstrap, 1, "blocks")
	if a.SpeedupHi-a.SpeedupLo <= p.SpeedupHi-p.SpeedupLo {
		t.Errorf("independent width %v not wider than paired width %v",
			a.SpeedupHi-a.SpeedupLo, p.SpeedupHi-p.SpeedupLo)
	}
	if !(a.SpeedupLo <= a.GeoSpeedup && a.GeoSpeedup <= a.SpeedupHi) {
		t.Errorf("point %v outside its interval [%v,%v]", a.GeoSpeedup, a.SpeedupLo, a.SpeedupHi)
	}
}

func TestCompareIndependentErrors(t *testing.T) {
	cases := []struct {
		ref, con []float64
		wantErr  string
	}{
		{[]float64{1}, []float64{1, 2}, "reference has 1 samples: need at least 2"},
		{[]float64{1, 2}, []float64{1, 0}, "contender sample 1 is 0"},
	}
	for _, c := range cases {
		_, err := CompareIndependent(c.ref, c.con, testBootstrap, 1, "x")
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("error %v, want one containing %q", err, c.wantErr)
		}
	}
}

func TestCompareAxisIndependent(t *testing.T) {
	ref := []float64{4, 4, 4, 4, 4}
	// Constant sides of different lengths: every replicate is ln 2 - ln 4,
	// change exactly -50% with a zero-width interval.
	a, err := CompareAxisIndependent(ref, []float64{2, 2, 2}, LowerIsBetter, testBootstrap, 1, "cpu")
	if err != nil {
		t.Fatal(err)
	}
	if a.Method != RelativeRatio || a.Change != -50 || a.Lo != -50 || a.Hi != -50 || a.N != 3 || a.Verdict != ContenderBetter {
		t.Errorf("constant sides: %+v", a)
	}
	// Zeros force absolute differences: mean(con) - mean(ref) = 1 - 0.
	a, _ = CompareAxisIndependent([]float64{0, 0, 0}, []float64{1, 1, 1, 1}, LowerIsBetter, testBootstrap, 1, "faults")
	if a.Method != AbsoluteDifference || a.Change != 1 || a.Lo != 1 || a.Hi != 1 || a.Verdict != ReferenceBetter {
		t.Errorf("absolute: %+v", a)
	}
	// Noisy sides: the interval surrounds the change and stays within what
	// the data allow.
	r := rand.New(rand.NewPCG(2, 3))
	x, y := pairsFromLogRatios(r, ar1(r, 80, 0.3, 0.05))
	a, _ = CompareAxisIndependent(x, y, HigherIsBetter, testBootstrap, 1, "ipc")
	if !(a.Lo < a.Change && a.Change < a.Hi) || a.BlockLen < 1 {
		t.Errorf("noisy sides: %+v", a)
	}
	for _, c := range []struct {
		ref, con []float64
		dir      Direction
		wantErr  string
	}{
		{ref, []float64{1}, LowerIsBetter, "contender has 1 samples: need at least 2"},
		{[]float64{1, math.Inf(1)}, ref, LowerIsBetter, "reference sample 1 is +Inf"},
		{ref, ref, Direction(7), "unknown direction 7"},
	} {
		_, err := CompareAxisIndependent(c.ref, c.con, c.dir, testBootstrap, 1, "x")
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("error %v, want one containing %q", err, c.wantErr)
		}
	}
}
