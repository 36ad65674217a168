package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// drawSizes are n sizes log-uniform on [base/2, 2·base], as fb-pair's
// default spread draws them.
func drawSizes(r *rand.Rand, n int, base float64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(math.Round(base * math.Pow(4, r.Float64()-0.5)))
	}
	return out
}

// TestSizeDependenceExact: a time per operation a·N^β without noise has
// one slope, β per doubling of N in log2 units: exactly 2^β − 1 per
// doubling, interval and all.
func TestSizeDependenceExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := drawSizes(r, 300, 20_000)
	for _, beta := range []float64{-0.1, 0, 0.02} {
		times := make([]float64, len(sizes))
		for i, n := range sizes {
			times[i] = 400 * math.Pow(float64(n), beta)
		}
		s, err := SizeDependence(sizes, times, 95)
		if err != nil {
			t.Fatal(err)
		}
		want := 100 * (math.Pow(2, beta) - 1)
		if math.Abs(s.PerDoublingPct-want) > 1e-9 || math.Abs(s.Lo-want) > 1e-9 || math.Abs(s.Hi-want) > 1e-9 {
			t.Errorf("β %v: %+v, want %.6f%% per doubling exactly", beta, s, want)
		}
		if s.Significant() != (beta != 0) || s.N != 300 {
			t.Errorf("β %v: significant %v, n %d", beta, s.Significant(), s.N)
		}
	}
}

func TestSizeDependenceNotVaried(t *testing.T) {
	if _, err := SizeDependence([]int64{5, 5, 5, 5}, []float64{1, 2, 3, 4}, 95); !errors.Is(err, ErrSizeNotVaried) {
		t.Fatalf("one size: %v", err)
	}
	if _, err := SizeDependence([]int64{5, 6}, []float64{1, 2}, 95); !errors.Is(err, ErrSizeNotVaried) {
		t.Fatalf("two samples: %v", err)
	}
}

// TestSizeDependenceCoverage: sizes drawn at random, noise independent or
// serially correlated (AR(1), φ 0.6), lognormal with 20% spread as a
// Go benchmark's process-per-batch samples have, 5% of the batches
// slowed 1.5–3x: the interval covers the true slope about 95% of the
// time, with and without a dependence.
func TestSizeDependenceCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const reps, n = 400, 200
	for _, tc := range []struct {
		name string
		phi  float64
		beta float64
	}{{"independent, none", 0, 0}, {"AR(1), none", 0.6, 0}, {"independent, -2%", 0, math.Log2(0.98)}, {"AR(1), +1%", 0.6, math.Log2(1.01)}} {
		r := rand.New(rand.NewPCG(7, uint64(tc.phi*10)))
		covered, found := 0, 0
		want := 100 * (math.Pow(2, tc.beta) - 1)
		for rep := 0; rep < reps; rep++ {
			sizes := drawSizes(r, n, 10_000)
			noise := ar1(r, n, tc.phi, 0.2)
			times := make([]float64, n)
			for i, s := range sizes {
				times[i] = 300 * math.Pow(float64(s), tc.beta) * math.Exp(noise[i])
				if r.Float64() < 0.05 {
					times[i] *= 1.5 + 1.5*r.Float64()
				}
			}
			s, err := SizeDependence(sizes, times, 95)
			if err != nil {
				t.Fatal(err)
			}
			if s.Lo <= want && want <= s.Hi {
				covered++
			}
			if s.Significant() {
				found++
			}
		}
		cover := float64(covered) / reps
		t.Logf("%-18s coverage %.3f  significant %d/%d", tc.name, cover, found, reps)
		if cover < 0.92 || cover > 0.985 {
			t.Errorf("%s: coverage %.3f, want about 0.95", tc.name, cover)
		}
	}
}

// TestSizeDependenceThinsLongSeries: a long series is thinned, and still
// finds its exact slope.
func TestSizeDependenceThinsLongSeries(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sizes := drawSizes(r, 5000, 1000)
	times := make([]float64, len(sizes))
	for i, n := range sizes {
		times[i] = 10 / math.Sqrt(float64(n))
	}
	s, err := SizeDependence(sizes, times, 95)
	if err != nil || s.N != MaxSizeSlopeSamples || math.Abs(s.PerDoublingPct-100*(math.Sqrt(0.5)-1)) > 1e-9 {
		t.Fatalf("%+v %v", s, err)
	}
}
