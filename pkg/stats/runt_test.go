package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPairedTExact checks the t interval against a hand computation. Log
// ratios ln(c/b) of 0.00, -0.02 (AB) and -0.04, -0.06 (BA): stratum means
// -0.01 and -0.05, crossover mean -0.03, pooled within-stratum variance
// (2·0.0001 + 2·0.0001)/(4-2) = 0.0002, se² = 0.0002·(1/2+1/2)/4 =
// 0.00005, t(0.975, 2) = 4.302653.
func TestPairedTExact(t *testing.T) {
	d := []float64{0, -0.02, -0.04, -0.06}
	strata := []int{0, 0, 1, 1}
	base := []float64{100, 200, 300, 400}
	cand := make([]float64, len(d))
	for i := range d {
		cand[i] = base[i] * math.Exp(d[i])
	}
	est, lo, hi := pairedT(base, cand, strata, LowerIsBetter, 95)
	half := 4.302652729749464 * math.Sqrt(0.00005)
	want := func(x float64) float64 { return -100 * math.Expm1(x) }
	if !near(est, want(-0.03), 1e-9) || !near(lo, want(-0.03+half), 1e-9) || !near(hi, want(-0.03-half), 1e-9) {
		t.Errorf("got %v [%v, %v], want %v [%v, %v]", est, lo, hi, want(-0.03), want(-0.03+half), want(-0.03-half))
	}
	// Higher is better: the same log-ratios are a loss.
	est, lo, hi = pairedT(base, cand, strata, HigherIsBetter, 95)
	if !near(est, 100*math.Expm1(-0.03), 1e-9) || !near(lo, 100*math.Expm1(-0.03-half), 1e-9) || !near(hi, 100*math.Expm1(-0.03+half), 1e-9) {
		t.Errorf("higher is better: %v [%v, %v]", est, lo, hi)
	}
	// A stratum of one pair cannot give a within-stratum spread: the pairs
	// are taken as one group, mean -0.03, s² = 0.0020/3, K-1 = 3.
	_, lo, _ = pairedT(base, cand, []int{0, 1, 1, 1}, LowerIsBetter, 95)
	half = 3.182446305284263 * math.Sqrt(0.002/3/4)
	if !near(lo, want(-0.03+half), 1e-9) {
		t.Errorf("one-pair stratum: lo %v, want %v", lo, want(-0.03+half))
	}
}

// TestCompareRunsPairedMethod: below MinBCaPairs pairs the t interval,
// from it the BCa interval with the Monte-Carlo error of its ends.
func TestCompareRunsPairedMethod(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var base, cand []float64
	var strata []int
	for i := range MinBCaPairs {
		block := 0.05 * r.NormFloat64()
		base = append(base, 1000*math.Exp(block+0.03*r.NormFloat64()))
		cand = append(cand, 950*math.Exp(block+0.03*r.NormFloat64()))
		strata = append(strata, i%2)
	}
	few := mustPaired(t, base[:MinBCaPairs-1], cand[:MinBCaPairs-1], strata[:MinBCaPairs-1], runBoot)
	if few.Method != RunMethodT || few.Resamples != 0 || few.MCError != [2]float64{} || !(few.Lo < few.Estimate && few.Estimate < few.Hi) {
		t.Errorf("%d pairs: %+v, want a t interval around its estimate", MinBCaPairs-1, few)
	}
	many := mustPaired(t, base, cand, strata, runBoot)
	if many.Method != RunMethodBCa || !(many.MCError[0] > 0 && many.MCError[1] > 0) {
		t.Errorf("%d pairs: %+v, want BCa with the Monte-Carlo error of its ends", MinBCaPairs, many)
	}
	if w := many.Hi - many.Lo; many.MCError[0] > 0.05*w || many.MCError[1] > 0.05*w {
		t.Errorf("Monte-Carlo errors %v of a %v-point interval from %d resamples", many.MCError, w, many.Resamples)
	}
}

// TestEndpointMCError: on the estimates 0, 1, ..., 999 each percentile p
// is 9.99·p, so the error is 9.99 times the binomial standard error of
// the level, 100·sqrt(p(1-p)/B) percent.
func TestEndpointMCError(t *testing.T) {
	est := make([]float64, 1000)
	for i := range est {
		est[len(est)-1-i] = float64(i)
	}
	got := endpointMCError(est, 2.5, 97.5)
	want := 9.99 * 100 * math.Sqrt(0.025*0.975/1000)
	if !near(got[0], want, 1e-9) || !near(got[1], want, 1e-9) {
		t.Errorf("got %v, want %v at both ends", got, want)
	}
	// A lumpy distribution: the end sits in a gap between two values.
	for i := range est {
		est[i] = 0
		if i >= 25 {
			est[i] = 10
		}
	}
	if got := endpointMCError(est, 2.5, 97.5); !(got[0] > 4) || got[1] != 0 {
		t.Errorf("lumpy: got %v, want a large error at the low end, 0 at the high", got)
	}
}
