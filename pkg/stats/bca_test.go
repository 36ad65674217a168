package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

var runBoot = RunBootstrap{Seed: 7, Stream: "cell/latency"}

// tenRuns returns ten per-run statistics of each side, lognormal with 3%
// spread, the candidate 5% faster.
func tenRuns(seed uint64) (base, cand []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	for range 10 {
		base = append(base, 1000*math.Exp(0.03*r.NormFloat64()))
		cand = append(cand, 950*math.Exp(0.03*r.NormFloat64()))
	}
	return base, cand
}

func mustIndependent(t *testing.T, base, cand []float64, dir Direction, b RunBootstrap) RunComparison {
	t.Helper()
	c, err := CompareRunsIndependent(base, cand, dir, b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustPaired(t *testing.T, base, cand []float64, strata []int, b RunBootstrap) RunComparison {
	t.Helper()
	c, err := CompareRunsPaired(base, cand, strata, LowerIsBetter, b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompareRunsDeterministic(t *testing.T) {
	base, cand := tenRuns(1)
	first := mustIndependent(t, base, cand, LowerIsBetter, runBoot)
	if again := mustIndependent(t, base, cand, LowerIsBetter, runBoot); again != first {
		t.Errorf("same seed and stream: %+v, then %+v", first, again)
	}
	if first.Method != RunMethodBCa || first.Resamples != DefaultRunResamples || first.BaseRuns != 10 || first.CandRuns != 10 || first.Strata != 0 {
		t.Errorf("got %+v, want a BCa interval of 10 runs a side at the default resamples", first)
	}
	if !(first.Lo < first.Estimate && first.Estimate < first.Hi) {
		t.Errorf("interval [%g, %g] does not hold the estimate %g", first.Lo, first.Hi, first.Estimate)
	}
	other := runBoot
	other.Stream = "cell/throughput"
	if c := mustIndependent(t, base, cand, LowerIsBetter, other); c.Lo == first.Lo && c.Hi == first.Hi {
		t.Errorf("another stream gave the same interval [%g, %g]", c.Lo, c.Hi)
	}
	slices.Reverse(base)
	slices.Reverse(cand)
	if c := mustIndependent(t, base, cand, LowerIsBetter, runBoot); c != first {
		t.Errorf("runs in reverse order: %+v, want %+v", c, first)
	}
}

// The resamples are drawn in chunks with streams of their own, so the
// number of goroutines drawing them does not change the result.
func TestCompareRunsCores(t *testing.T) {
	base, cand := tenRuns(2)
	b := runBoot
	b.Resamples = 50000
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	one := mustPaired(t, base, cand, nil, b)
	runtime.GOMAXPROCS(4)
	if four := mustPaired(t, base, cand, nil, b); four != one {
		t.Errorf("GOMAXPROCS 4: %+v, GOMAXPROCS 1: %+v", four, one)
	}
}

func TestCompareRunsPairedOrder(t *testing.T) {
	base, cand := tenRuns(3)
	strata := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
	want := mustPaired(t, base, cand, strata, runBoot)
	if want.Strata != 2 || want.BaseRuns != 10 || want.CandRuns != 10 {
		t.Errorf("got %+v, want 10 pairs in 2 strata", want)
	}
	r := rand.New(rand.NewPCG(9, 9))
	for range 5 {
		p := r.Perm(len(base))
		b2, c2, s2 := make([]float64, len(p)), make([]float64, len(p)), make([]int, len(p))
		for i, j := range p {
			b2[i], c2[i], s2[i] = base[j], cand[j], strata[j]
		}
		if got := mustPaired(t, b2, c2, s2, runBoot); got != want {
			t.Errorf("pairs in order %v: %+v, want %+v", p, got, want)
		}
	}
	if got := mustPaired(t, base, cand, nil, runBoot); got.Strata != 1 || got == want {
		t.Errorf("without strata: %+v, want one stratum and another interval than %+v", got, want)
	}
}

// A resample keeps each stratum's count: stratum 0 holds values below
// 50, stratum 1 values above 100.
func TestRunResampleKeepsStrata(t *testing.T) {
	base := []float64{103, 1, 101, 2, 104, 3, 105, 102}
	d := pairedDesign(base, base, []int{1, 0, 1, 0, 1, 0, 1, 1}, LowerIsBetter)
	g := chunkStream(1, streamKey("strata"), 0)
	s := d.newSample()
	for range 1000 {
		d.resample(&g, s)
		low := 0
		for i, v := range d.baseVals {
			if v < 50 {
				low += int(s.base[i])
			}
		}
		if low != 3 || s.nBase != 8 || s.nCand != 8 {
			t.Fatalf("resample %v of %v has %d values of stratum 0, want 3 of 8", s.base, d.baseVals, low)
		}
	}
	jack := d.jackknife()
	if len(jack) != 2 || len(jack[0]) != 3 || len(jack[1]) != 5 {
		t.Errorf("jackknife groups %v, want one estimate per deleted pair in each stratum (3 and 5)", jack)
	}
}

// The baseline is constant and the candidate median of two draws from
// {90, 110} is 90, 100 or 110 with probabilities 1/4, 1/2, 1/4: the
// estimate is 0, about half the resamples tie with it, the jackknife
// (deleting 90 gives -10, deleting 110 gives +10) is symmetric, so a = 0,
// and both ends are the ±10 atoms.
func TestCompareRunsTies(t *testing.T) {
	c := mustIndependent(t, []float64{100, 100, 100}, []float64{90, 110}, LowerIsBetter, runBoot)
	if c.Estimate != 0 || !near(c.Lo, -10, 1e-12) || !near(c.Hi, 10, 1e-12) || c.Method != RunMethodBCa || c.Accel != 0 {
		t.Errorf("got %+v, want estimate 0 in [-10, 10] by BCa with a = 0", c)
	}
	if sd := math.Sqrt(0.25 * float64(c.Resamples)); math.Abs(float64(c.Ties)-0.5*float64(c.Resamples)) > 4*sd {
		t.Errorf("%d ties in %d resamples, want about half", c.Ties, c.Resamples)
	}
	if math.Abs(c.Z0) > 4*math.Sqrt(0.125/float64(c.Resamples))/0.3989 {
		t.Errorf("z0 %g, want about 0 for a symmetric bootstrap distribution", c.Z0)
	}
}

// The midrank convention by hand: of ten estimates one lies below θ̂ = 0
// and three tie with it, so z0 = Φ⁻¹((1 + 1.5)/10).
func TestRunBCaMidrank(t *testing.T) {
	c := RunComparison{Estimate: 0}
	c.bca([]float64{3, 0, -1, 0, 1, 2, 0, 4, 5, 6}, [][]float64{{1, 2, 4}}, 95)
	if want := distuv.UnitNormal.Quantile(0.25); c.Ties != 3 || !near(c.Z0, want, 1e-12) || c.Method != RunMethodBCa {
		t.Errorf("ties %d, z0 %g by %s, want 3 ties and z0 %g by BCa", c.Ties, c.Z0, c.Method, want)
	}
}

func TestRunAcceleration(t *testing.T) {
	tests := []struct {
		name string
		jack [][]float64
		want float64
		ok   bool
	}{
		{"symmetric", [][]float64{{1, 2, 3}}, 0, true},
		// d = 1, 1, -2: Σd³ = -6, Σd² = 6, a = -6/(6·6^1.5)
		{"one group", [][]float64{{0, 0, 3}}, -1 / math.Pow(6, 1.5), true},
		// u = (2/3)(1, 1, -2) and (1/2)(1, -1): Σu³ = -16/9, Σu² = 8/3 + 1/2
		{"unequal groups", [][]float64{{0, 0, 3}, {1, 3}}, -16.0 / 9 / (6 * math.Pow(8.0/3+0.5, 1.5)), true},
		{"degenerate", [][]float64{{5, 5, 5}, {7, 7}}, 0, false},
		{"single units", [][]float64{{5}, {7}}, 0, false},
	}
	for _, tt := range tests {
		a, ok := runAcceleration(tt.jack, 1e-12)
		if ok != tt.ok || !near(a, tt.want, 1e-15) {
			t.Errorf("%s: a = %g, %v; want %g, %v", tt.name, a, ok, tt.want, tt.ok)
		}
	}
}

// Deleting any one run leaves every median where it was, so the
// jackknife is degenerate, while resamples of five candidate runs move
// the median to 90 or 110 more often than 2.5% of the time: the
// labelled percentile interval [-10, 10].
func TestCompareRunsPercentileFallback(t *testing.T) {
	c := mustIndependent(t, []float64{100, 100, 100}, []float64{90, 100, 100, 100, 110}, LowerIsBetter, runBoot)
	if c.Method != RunMethodPercentile || !near(c.Lo, -10, 1e-12) || !near(c.Hi, 10, 1e-12) || c.Estimate != 0 || c.Z0 != 0 || c.Accel != 0 {
		t.Errorf("got %+v, want the percentile interval [-10, 10] around 0 with z0 = a = 0", c)
	}
}

func TestCompareRunsNoSpread(t *testing.T) {
	c := mustIndependent(t, []float64{100, 100, 100}, []float64{95, 95}, LowerIsBetter, runBoot)
	if !near(c.Estimate, 5, 1e-12) || c.Lo != c.Estimate || c.Hi != c.Estimate || c.Ties != c.Resamples || c.Method != RunMethodPercentile {
		t.Errorf("constant runs: %+v, want [5, 5] with every resample tied", c)
	}
	// Pairs in proportion: every pair's log-ratio is ln 0.9, up to
	// rounding, which the t interval's spread tolerance absorbs.
	base := []float64{101.3, 207.1, 333.3, 410.9, 577.7, 613}
	cand := make([]float64, len(base))
	for i, v := range base {
		cand[i] = 0.9 * v
	}
	p := mustPaired(t, base, cand, []int{0, 1, 0, 1, 0, 1}, runBoot)
	if !near(p.Estimate, 10, 1e-9) || p.Lo != p.Estimate || p.Hi != p.Estimate || p.Method != RunMethodT {
		t.Errorf("proportional pairs: %+v, want the zero-width interval at 10", p)
	}
}

func TestCompareRunsDirection(t *testing.T) {
	base, cand := []float64{98, 100, 102}, []float64{88, 90, 92}
	lower := mustIndependent(t, base, cand, LowerIsBetter, runBoot)
	if !near(lower.Estimate, 10, 1e-12) || lower.Lo < 100*(1-92.0/98)-1e-12 || lower.Hi > 100*(1-88.0/102)+1e-12 || lower.Verdict(1) != ContenderFaster {
		t.Errorf("lower is better, 10%% less: %+v (%v), want about +10 within the range of resampled medians, contender faster", lower, lower.Verdict(1))
	}
	higher := mustIndependent(t, base, cand, HigherIsBetter, runBoot)
	if !near(higher.Estimate, -10, 1e-12) || higher.Hi > 100*(92.0/98-1)+1e-12 || higher.Lo < 100*(88.0/102-1)-1e-12 || higher.Verdict(1) != ReferenceFaster {
		t.Errorf("higher is better, 10%% less: %+v (%v), want about -10, reference faster", higher, higher.Verdict(1))
	}
}

func TestRunComparisonVerdict(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		want   Verdict
	}{
		{2, 8, ContenderFaster},
		{-8, -2, ReferenceFaster},
		{-0.5, 0.5, Equivalent},
		{-2, 2, Inconclusive},
		{0.5, 3, Inconclusive},
	} {
		if got := (RunComparison{Lo: tt.lo, Hi: tt.hi}).Verdict(1); got != tt.want {
			t.Errorf("improvement in [%g, %g], threshold 1%%: %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestCompareRunsEvidence(t *testing.T) {
	five := []float64{1, 2, 3, 4, 5}
	var e *EvidenceError
	_, err := CompareRunsIndependent([]float64{1}, five, LowerIsBetter, runBoot)
	if !errors.As(err, &e) || *e != (EvidenceError{Unit: "baseline runs", Have: 1, Need: MinRunsPerSide}) {
		t.Errorf("one baseline run: %v, want an EvidenceError naming the minimum of 2", err)
	}
	_, err = CompareRunsIndependent(five, []float64{1}, LowerIsBetter, runBoot)
	if !errors.As(err, &e) || e.Unit != "candidate runs" {
		t.Errorf("one candidate run: %v, want an EvidenceError", err)
	}
	_, err = CompareRunsPaired(five[:4], five[:4], nil, LowerIsBetter, runBoot)
	if !errors.As(err, &e) || *e != (EvidenceError{Unit: "complete pairs", Have: 4, Need: MinPairs}) {
		t.Errorf("four pairs: %v, want an EvidenceError naming the minimum of 5", err)
	}
	if want := "insufficient evidence: 4 complete pairs, process-level inference needs at least 5"; err == nil || err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestCompareRunsBadInput(t *testing.T) {
	ok := []float64{1, 2, 3, 4, 5}
	tests := []struct {
		name       string
		base, cand []float64
		strata     []int
		dir        Direction
		b          RunBootstrap
		want       string
	}{
		{"NaN", ok, []float64{1, math.NaN(), 3, 4, 5}, nil, LowerIsBetter, runBoot, "candidate run 1 is NaN"},
		{"zero", []float64{1, 2, 0, 4, 5}, ok, nil, LowerIsBetter, runBoot, "baseline run 2 is 0"},
		{"negative", ok, []float64{1, 2, 3, 4, -5}, nil, LowerIsBetter, runBoot, "candidate run 4 is -5"},
		{"infinite", []float64{math.Inf(1), 2, 3, 4, 5}, ok, nil, LowerIsBetter, runBoot, "baseline run 0 is +Inf"},
		{"unpaired", ok, ok[:4], nil, LowerIsBetter, runBoot, "baseline has 5 runs but candidate has 4"},
		{"strata", ok, ok, []int{0, 1}, LowerIsBetter, runBoot, "strata cover 2 pairs but there are 5"},
		{"direction", ok, ok, nil, Diagnostic, runBoot, "direction diagnostic"},
		{"resamples", ok, ok, nil, LowerIsBetter, RunBootstrap{Resamples: 500}, "resamples 500 out of range"},
		{"confidence", ok, ok, nil, LowerIsBetter, RunBootstrap{Confidence: 100}, "confidence 100 out of range"},
	}
	for _, tt := range tests {
		_, err := CompareRunsPaired(tt.base, tt.cand, tt.strata, tt.dir, tt.b)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
		var e *EvidenceError
		if errors.As(err, &e) {
			t.Errorf("%s: bad input reported as missing evidence: %v", tt.name, err)
		}
	}
	if _, err := CompareRunsIndependent(ok, []float64{1, math.NaN()}, LowerIsBetter, runBoot); err == nil || !strings.Contains(err.Error(), "candidate run 1 is NaN") {
		t.Errorf("independent NaN: %v", err)
	}
}

// A lower confidence level gives a narrower interval inside the wider.
func TestCompareRunsConfidence(t *testing.T) {
	base, cand := tenRuns(4)
	wide := mustIndependent(t, base, cand, LowerIsBetter, runBoot)
	b := runBoot
	b.Confidence = 80
	narrow := mustIndependent(t, base, cand, LowerIsBetter, b)
	if !(wide.Lo < narrow.Lo && narrow.Hi < wide.Hi) {
		t.Errorf("80%% interval [%g, %g] not inside the 95%% one [%g, %g]", narrow.Lo, narrow.Hi, wide.Lo, wide.Hi)
	}
}

// BenchmarkCompareRunsIndependent10 times one comparison of 10 runs a
// side at DefaultRunResamples, on one core.
func BenchmarkCompareRunsIndependent10(b *testing.B) {
	base, cand := tenRuns(5)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for b.Loop() {
		if _, err := CompareRunsIndependent(base, cand, LowerIsBetter, runBoot); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompareRunsPaired10 times one comparison of 10 pairs in two
// orientation strata at DefaultRunResamples, on one core.
func BenchmarkCompareRunsPaired10(b *testing.B) {
	base, cand := tenRuns(5)
	strata := []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for b.Loop() {
		if _, err := CompareRunsPaired(base, cand, strata, LowerIsBetter, runBoot); err != nil {
			b.Fatal(err)
		}
	}
}

// The counted median is Median of the multiset, bit for bit, so resamples
// that hold the observed medians tie with the estimate exactly.
func TestCountedMedian(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		vals := make([]float64, 1+r.IntN(12))
		for i := range vals {
			vals[i] = float64(r.IntN(5)) + r.Float64()
		}
		slices.Sort(vals)
		count := make([]int32, len(vals))
		var multiset []float64
		for len(multiset) == 0 {
			for i := range count {
				count[i] = int32(r.IntN(3))
				for range count[i] {
					multiset = append(multiset, vals[i])
				}
			}
		}
		if got, want := countedMedian(vals, count, newMedianRank(len(multiset))), Median(multiset); got != want {
			t.Fatalf("counts %v of %v: median %v, want %v", count, vals, got, want)
		}
	}
	base, cand := tenRuns(6)
	c := pairedDesign(base, cand[:10], nil, LowerIsBetter).observed()
	if want := 100 * (1 - Median(cand)/Median(base)); c.Estimate != want {
		t.Errorf("estimate %v, want %v", c.Estimate, want)
	}
}
