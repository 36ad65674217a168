package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLagZero: from ShortSeriesPairs on, a seeded independent series
// resamples single values and a dependent one keeps the block rule's
// blocks; below it the block rule always applies.
func TestLagZero(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 32))
	indep := normals(r, 200, simSigma)
	dep := ar1(r, 200, 0.5, simSigma)
	for _, c := range []struct {
		name string
		x    []float64
		want bool
	}{
		{"independent, 200", indep, true},
		{"AR(1) 0.5, 200", dep, false},
		{"independent, 49", indep[:ShortSeriesPairs-1], false},
	} {
		if got := lagZero(newAutocovariance(c.x)); got != c.want {
			t.Errorf("%s: lagZero %v, want %v", c.name, got, c.want)
		}
	}
	// ComparePaired tests the decision estimate's pseudo-values, which
	// for these pairs pass, and for the dependent ones do not.
	for _, c := range []struct {
		d         []float64
		lagZero   bool
		wantBlock func(int) bool
	}{{indep, true, func(b int) bool { return b == 1 }}, {dep, false, func(b int) bool { return b > 1 }}} {
		if got := lagZero(newAutocovariance(Locate(c.d, nil, true).Pseudo)); got != c.lagZero {
			t.Fatalf("pseudo-values: lagZero %v, want %v", got, c.lagZero)
		}
		ref, con := pairsFromLogRatios(r, c.d)
		p, err := ComparePaired(PairedInput{Ref: ref, Con: con}, testBootstrap, 1, "t")
		if err != nil {
			t.Fatal(err)
		}
		if !c.wantBlock(p.BlockLen) {
			t.Errorf("lag zero %v: block %d", c.lagZero, p.BlockLen)
		}
	}
}

// TestShortLag1Bound: the upper bound of a series' lag-one coefficient
// is max(ρ, 0) + 2·sqrt((1-ρ²)/n), ρ the bias-corrected estimate, at
// most maxWhiten.
func TestShortLag1Bound(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	for _, c := range []struct {
		name string
		x    []float64
	}{
		{"independent", normals(r, 49, simSigma)},
		{"AR(1) 0.5", ar1(r, 49, 0.5, simSigma)},
		{"AR(1) 0.97", ar1(r, 49, 0.97, simSigma)},
		{"alternating", alternating(49)},
	} {
		for _, n := range []int{MinCheckedPairs, 35, ShortSeriesPairs - 1} {
			a := newAutocovariance(c.x[:n])
			rho := correctedLag1(a)
			want := min(max(rho, 0)+2*math.Sqrt((1-rho*rho)/float64(n)), maxWhiten)
			if got := shortLag1Bound(a); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s, %d values (ρ %.3f): bound %.6f, want %.6f", c.name, n, rho, got, want)
			}
		}
	}
}

// alternating is n values of +1 and -1 in turn: a lag-one coefficient
// near -1.
func alternating(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(1 - 2*(i%2))
	}
	return x
}

// TestShortWiden: the interval of a short series is at least Student's t
// at its scale with the degrees of freedom of its effective values at the
// upper bound of its lag-one coefficient, even past the data's range;
// an interval already wider, and any series outside 20 to 49 values,
// stays as it is.
func TestShortWiden(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 44))
	x := ar1(r, 60, 0.9, simSigma)
	for _, n := range []int{MinCheckedPairs - 1, MinCheckedPairs, ShortSeriesPairs - 1, ShortSeriesPairs} {
		a := newAutocovariance(x[:n])
		const center, se = 0.5, 0.25
		lo, hi, _ := shortWidening(a, center, se, 0.4, 0.6, 95)
		if n < MinCheckedPairs || n >= ShortSeriesPairs {
			if lo != 0.4 || hi != 0.6 {
				t.Errorf("%d values: [%v, %v] widened, want [0.4, 0.6]", n, lo, hi)
			}
			continue
		}
		rho := shortLag1Bound(a)
		q := studentQuantile(0.975, max(float64(n)*(1-rho)/(1+rho)-1, 1))
		if math.Abs(lo-(center-q*se)) > 1e-12 || math.Abs(hi-(center+q*se)) > 1e-12 {
			t.Errorf("%d values (upper ρ %.3f): [%v, %v], want %v ± %v·%v", n, rho, lo, hi, center, q, se)
		}
		if wlo, whi, _ := shortWidening(a, center, se, -100, 100, 95); wlo != -100 || whi != 100 {
			t.Errorf("%d values: a wider interval became [%v, %v]", n, wlo, whi)
		}
		_, _, w := shortWidening(a, center, se, 0.4, 0.6, 95)
		want := ShortWidening{Lag1Bound: rho, EffectiveBound: float64(n) * (1 - rho) / (1 + rho), Factor: (hi - lo) / 0.2}
		if w == nil || math.Abs(w.Lag1Bound-want.Lag1Bound) > 1e-12 || math.Abs(w.EffectiveBound-want.EffectiveBound) > 1e-9 ||
			math.Abs(w.Factor-want.Factor) > 1e-9 {
			t.Errorf("%d values: account %+v, want %+v", n, w, want)
		}
		if _, _, w := shortWidening(a, center, se, -100, 100, 95); w == nil || w.Factor != 1 {
			t.Errorf("%d values: a wider interval's account %+v, want a factor of 1", n, w)
		}
	}
	if _, _, w := shortWidening(newAutocovariance(x), 0.5, 0.25, 0.4, 0.6, 95); w != nil {
		t.Errorf("60 values: account %+v, want none", w)
	}
}

// TestShortSeriesInterval: ComparePaired on 20 pairs of strongly
// dependent noise reports an interval (none is withheld) as wide as what
// the series holds, over ten times the paired t-interval's width (3.5
// times without the short-series rule), while 20 independent pairs stay
// within twice it; 60 of the same dependent pairs, 20% apart, hold enough
// to decide.
func TestShortSeriesInterval(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	d := ar1(r, 60, 0.9, 0.01)
	for i := range d {
		d[i] += 0.2
	}
	width := func(d []float64) (ratio float64, p Paired) {
		ref, con := pairsFromLogRatios(r, d)
		p, err := ComparePaired(PairedInput{Ref: ref, Con: con}, testBootstrap, 1, "t")
		if err != nil {
			t.Fatal(err)
		}
		return (ln(p.SpeedupHi) - ln(p.SpeedupLo)) / pairedTWidth(ref, con, testBootstrap.Confidence), p
	}
	if ratio, p := width(d[:20]); ratio < 10 || p.Method != MethodBlocks || p.EffectivePairs >= 5 {
		t.Errorf("20 AR(0.9) pairs: %.2f times the t-interval's width, method %q, %.1f effective pairs; want at least 10, blocks, under 5",
			ratio, p.Method, p.EffectivePairs)
	} else if p.Short == nil || p.Short.Factor < 2 || p.Short.Lag1Bound < 0.5 || p.Short.EffectiveBound >= p.EffectivePairs {
		t.Errorf("20 AR(0.9) pairs: short-series account %+v, want a widening of 2 or more, a bound of 0.5 or more, under %.1f pairs",
			p.Short, p.EffectivePairs)
	}
	if ratio, _ := width(normals(r, 20, simSigma)); ratio < 1 || ratio > 2 {
		t.Errorf("20 independent pairs: %.2f times the t-interval's width, want 1 to 2", ratio)
	}
	if _, p := width(d); p.Verdict != ContenderFaster || p.Short != nil {
		t.Errorf("60 AR(0.9) pairs 20%% apart: %v, short-series account %+v; want contender faster, none", p.Verdict, p.Short)
	}
}
