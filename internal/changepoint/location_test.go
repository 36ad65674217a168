package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLocationCoverage simulates single steps at a random place in 60
// points, Gaussian noise and Student-t noise with 3 degrees of freedom
// (heavy tails), and a share of outliers, and counts how often the range
// of the change point found nearest the step (within 10 points; farther
// ones are false change points, counted apart) holds the true place; go
// test -v prints the table. A 95% range must hold it in at least 93% of
// each row with 50 or more found.
func TestLocationCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulation")
	}
	const series = 300
	t.Logf("%-22s %6s %6s %9s %11s %9s", "noise", "SDs", "found", "covered", "mean width", "at index")
	for k, c := range []struct {
		name string
		sds  float64
		make func(r *rand.Rand) float64
	}{
		{"gaussian", 1, gauss}, {"gaussian", 2, gauss}, {"gaussian", 3, gauss}, {"gaussian", 5, gauss}, {"gaussian", 10, gauss},
		{"student t3", 2, t3}, {"student t3", 3, t3}, {"student t3", 5, t3},
		{"gaussian, 5% outliers", 3, outliers}, {"gaussian, 5% outliers", 5, outliers},
	} {
		found, covered, exact, width := 0, 0, 0, 0
		for s := range uint64(series) {
			r := rand.New(rand.NewPCG(s, 901+uint64(k)))
			at := 10 + r.IntN(40)
			x := make([]float64, 60)
			for i := range x {
				x[i] = 100 * (1 + 0.01*c.make(r))
				if i >= at {
					x[i] += c.sds
				}
			}
			opt := DefaultOptions
			opt.Seed, opt.Permutations = s, 199
			near := -1
			cs := Detect(x, opt)
			for i, ch := range cs {
				if d := abs(float64(ch.Index - at)); d <= 10 && (near < 0 || d < abs(float64(cs[near].Index-at))) {
					near = i
				}
			}
			if near < 0 {
				continue
			}
			ch := cs[near]
			if ch.Range[0] > ch.Index || ch.Index > ch.Range[1] {
				t.Fatalf("series %d: change at %d outside its range %v", s, ch.Index, ch.Range)
			}
			found++
			if ch.Range[0] <= at && at <= ch.Range[1] {
				covered++
			}
			if ch.Range[0] == ch.Range[1] {
				exact++
			}
			width += ch.Range[1] - ch.Range[0]
		}
		cov := float64(covered) / float64(max(found, 1))
		t.Logf("%-22s %6.0f %6d %8.1f%% %11.1f %8.1f%%", c.name, c.sds, found, 100*cov, float64(width)/float64(max(found, 1)), 100*float64(exact)/float64(max(found, 1)))
		if found >= 50 && cov < 0.93 {
			t.Errorf("%s, %g SD: the range holds the place of %.1f%% of %d change points", c.name, c.sds, 100*cov, found)
		}
	}
}

func gauss(r *rand.Rand) float64 { return r.NormFloat64() }

// t3 is Student's t with 3 degrees of freedom scaled to unit variance.
func t3(r *rand.Rand) float64 {
	z := r.NormFloat64()
	var chi float64
	for range 3 {
		g := r.NormFloat64()
		chi += g * g
	}
	return z / math.Sqrt(chi/3) / math.Sqrt(3)
}

// outliers is Gaussian noise with 5% of points 20 SDs high.
func outliers(r *rand.Rand) float64 {
	if r.Float64() < 0.05 {
		return r.NormFloat64() + 20
	}
	return r.NormFloat64()
}

// TestRangeHoldsIndex: on series of every length and shape, ties and
// constant stretches among them, every change point's range lies inside
// the series and holds its index.
func TestRangeHoldsIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	opt := DefaultOptions
	opt.Permutations = 99
	for s := range 400 {
		n := 2 + r.IntN(120)
		x := make([]float64, n)
		level := 100.0
		for i := range x {
			if r.IntN(15) == 0 {
				level *= 1 + 0.2*r.NormFloat64()
			}
			switch s % 3 {
			case 0: // rounded: many ties
				x[i] = math.Round(level + 2*r.NormFloat64())
			case 1: // constant stretches
				x[i] = level
			default:
				x[i] = level * (1 + 0.02*t3(r))
			}
		}
		opt.Seed = uint64(s)
		for _, c := range Detect(x, opt) {
			if c.Range[0] < 1 || c.Range[0] > c.Index || c.Index > c.Range[1] || c.Range[1] >= n {
				t.Fatalf("series %d (%d points): change at %d with range %v", s, n, c.Index, c.Range)
			}
		}
	}
}
