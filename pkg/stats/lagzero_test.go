package stats

import (
	"math/rand/v2"
	"strings"
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
		if !c.wantBlock(p.BlockLen) || p.Evidence != "" {
			t.Errorf("lag zero %v: block %d, evidence %q", c.lagZero, p.BlockLen, p.Evidence)
		}
	}
}

// TestDependentShort: 20 pairs of AR(1) noise with coefficient 0.9 report
// insufficient evidence, with an inconclusive verdict even though the
// interval computed clears the threshold; 20 independent pairs do not,
// nor do 60 dependent ones, nor 19, below the range the rule was chosen on.
func TestDependentShort(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	d := ar1(r, 60, 0.9, 0.01)
	for i := range d {
		d[i] += 0.2
	}
	ref, con := pairsFromLogRatios(r, d[:20])
	p, err := ComparePaired(PairedInput{Ref: ref, Con: con}, testBootstrap, 1, "t")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Evidence, "insufficient evidence: the 20 pairs are serially dependent") || p.Verdict != Inconclusive {
		t.Errorf("20 AR(0.9) pairs: evidence %q, verdict %v", p.Evidence, p.Verdict)
	}
	if Classify(p.ChangeLo, p.ChangeHi, 1) != ContenderFaster {
		t.Errorf("the interval [%v, %v] should clear the threshold, so that withholding it is what the test sees", p.ChangeLo, p.ChangeHi)
	}
	if p.EffectivePairs >= 5 {
		t.Errorf("effective pairs %v, want fewer than 5", p.EffectivePairs)
	}
	ref, con = pairsFromLogRatios(r, d)
	if p, _ := ComparePaired(PairedInput{Ref: ref, Con: con}, testBootstrap, 1, "t"); p.Evidence != "" || p.Verdict != ContenderFaster {
		t.Errorf("60 AR(0.9) pairs: evidence %q, verdict %v", p.Evidence, p.Verdict)
	}
	ref, con = pairsFromLogRatios(r, d[:MinCheckedPairs-1])
	if p, _ := ComparePaired(PairedInput{Ref: ref, Con: con}, testBootstrap, 1, "t"); p.Evidence != "" {
		t.Errorf("%d AR(0.9) pairs, below the simulation's range: evidence %q", MinCheckedPairs-1, p.Evidence)
	}
	ref, con = pairsFromLogRatios(r, normals(r, 20, simSigma))
	if p, _ := ComparePaired(PairedInput{Ref: ref, Con: con}, testBootstrap, 1, "t"); p.Evidence != "" {
		t.Errorf("20 independent pairs: evidence %q", p.Evidence)
	}
}
