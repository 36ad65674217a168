package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// noisy is n points of level 1 with relative noise sd, seeded.
func noisy(rng *rand.Rand, n int, sd float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 + sd*rng.NormFloat64()
	}
	return x
}

// step multiplies the points from i on by (1+rel).
func step(x []float64, i int, rel float64) []float64 {
	for j := i; j < len(x); j++ {
		x[j] *= 1 + rel
	}
	return x
}

// directQ is the scaled divergence of one split, computed from its definition.
func directQ(x []float64, tau int) float64 {
	X, Y := x[:tau], x[tau:]
	m, k := float64(len(X)), float64(len(Y))
	var cross, within1, within2 float64
	for _, a := range X {
		for _, b := range Y {
			cross += dist(a, b)
		}
	}
	for i := range X {
		for j := i + 1; j < len(X); j++ {
			within1 += dist(X[i], X[j])
		}
	}
	for i := range Y {
		for j := i + 1; j < len(Y); j++ {
			within2 += dist(Y[i], Y[j])
		}
	}
	e := 2*cross/(m*k) - within1/(m*(m-1)/2) - within2/(k*(k-1)/2)
	return m * k / (m + k) * e
}

func TestBestMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	x := step(noisy(rng, 23, 0.05), 9, 0.1)
	tau, q, ok := best(x, 3)
	if !ok {
		t.Fatal("no split")
	}
	for s := 3; s <= len(x)-3; s++ {
		d := directQ(x, s)
		if d > q+1e-9 {
			t.Errorf("split %d has Q %g above best's %g at %d", s, d, q, tau)
		}
		if s == tau && math.Abs(d-q) > 1e-9 {
			t.Errorf("best's Q %g at %d, definition %g", q, tau, d)
		}
	}
}

func TestStepFoundAtItsIndex(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		x := step(noisy(rng, 60, 0.01), 30, 0.05) // 5 noise SDs
		got := Detect(x, Options{Level: 0.01, Permutations: 199, MinSize: 3, Seed: seed})
		if len(got) != 1 || got[0].Index != 30 {
			t.Fatalf("seed %d: %+v, want one change at 30", seed, got)
		}
		if c := got[0].After/got[0].Before - 1; math.Abs(c-0.05) > 0.01 || got[0].P > 0.01 {
			t.Errorf("seed %d: magnitude %.3f, p %g", seed, c, got[0].P)
		}
	}
}

func TestTwoSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	x := step(step(noisy(rng, 80, 0.01), 25, 0.08), 55, -0.06)
	got := Detect(x, DefaultOptions)
	if len(got) != 2 || got[0].Index != 25 || got[1].Index != 55 {
		t.Fatalf("%+v, want changes at 25 and 55", got)
	}
	if got[1].Before != got[0].After {
		t.Errorf("the middle level differs: %g and %g", got[0].After, got[1].Before)
	}
}

func TestFlatSeriesHasNone(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 11))
	x := noisy(rng, 60, 0.03)
	if got := Detect(x, DefaultOptions); len(got) != 0 {
		t.Errorf("flat series: %+v", got)
	}
	if got := Detect(x[:5], DefaultOptions); len(got) != 0 {
		t.Errorf("5 points: %+v", got)
	}
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x := step(noisy(rng, 40, 0.02), 20, 0.03)
	a, b := Detect(x, DefaultOptions), Detect(x, DefaultOptions)
	if len(a) != len(b) {
		t.Fatalf("%v and %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("%v and %v", a[i], b[i])
		}
	}
}

// TestFalsePositiveRate simulates flat series (length 40, Gaussian noise)
// and counts those with any change point: about Level of them should.
// Steps of 3 noise SDs at a random place are found (within 2 points).
func TestFalsePositiveRate(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulation")
	}
	const series, n = 300, 40
	for _, level := range []float64{0.01, 0.05} {
		opt := Options{Level: level, Permutations: 199, MinSize: 3, Window: DefaultOptions.Window}
		falses, found := 0, 0
		for s := range uint64(series) {
			rng := rand.New(rand.NewPCG(s, 99))
			opt.Seed = s
			if len(Detect(noisy(rng, n, 0.02), opt)) > 0 {
				falses++
			}
			at := 5 + rng.IntN(n-10)
			got := Detect(step(noisy(rng, n, 0.02), at, 0.06), opt)
			for _, c := range got {
				if c.Index >= at-2 && c.Index <= at+2 {
					found++
					break
				}
			}
		}
		fp, recall := float64(falses)/series, float64(found)/series
		t.Logf("level %.2f: %d flat series of %d points, %.1f%% with a false change point; steps of 3 SD found in %.1f%%",
			level, series, n, 100*fp, 100*recall)
		long := 0
		for s := range uint64(series) {
			opt.Seed = s
			if len(Detect(noisy(rand.New(rand.NewPCG(s, 98)), 200, 0.02), opt)) > 0 {
				long++
			}
		}
		t.Logf("level %.2f: %.1f%% of flat series of 200 points (windows of %d) with a false change point",
			level, 100*float64(long)/series, opt.Window)
		// Binomial(300, level): 3 standard errors above the level.
		if limit := level + 3*math.Sqrt(level*(1-level)/series); fp > limit {
			t.Errorf("level %.2f: false change points in %.1f%% of flat series, above %.1f%%", level, 100*fp, 100*limit)
		}
		if recall < 0.9 {
			t.Errorf("level %.2f: steps of 3 SD found in %.1f%%, want 90%% or more", level, 100*recall)
		}
	}
}
