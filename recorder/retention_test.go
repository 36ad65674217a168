package recorder

import (
	"math"
	"slices"
	"testing"
)

// run finishes n spans of b with outcomes cycling through all four.
func run(r *Recorder, b *Benchmark, n int) {
	for i := range n {
		r.Begin(b).Finish(Outcome(i % int(nOutcomes)))
	}
}

func TestFirstNKeepsTheFirst(t *testing.T) {
	r, bs, buf := started(t, Options{Retention: FirstN, Capacity: 3}, "a", "b")
	run(r, bs[0], 10)
	run(r, bs[1], 2)
	got := stop(t, r, buf)
	if o := obsOf(got.spans, 0); !slices.Equal(o, []int64{1, 2, 3}) {
		t.Errorf("benchmark a kept %v, want [1 2 3]", o)
	}
	if o := obsOf(got.spans, 1); !slices.Equal(o, []int64{1, 2}) {
		t.Errorf("benchmark b kept %v, want [1 2]", o)
	}
	wantOutcomes := []string{"success", "failure", "timeout"}
	for i, s := range got.spans[:3] {
		if s.Outcome != wantOutcomes[i] {
			t.Errorf("obs %d: outcome %s, want %s", s.Obs, s.Outcome, wantOutcomes[i])
		}
	}
	a := got.end.Benchmarks[0]
	if a.Observed != 10 || a.Retained != 3 || a.Omitted != 7 || a.Unfinished != 0 {
		t.Errorf("tally %+v", a)
	}
	if a.Outcomes["success"] != 3 || a.Outcomes["failure"] != 3 || a.Outcomes["timeout"] != 2 || a.Outcomes["cancelled"] != 2 {
		t.Errorf("outcomes %v", a.Outcomes)
	}
}

func TestLatestNKeepsTheLast(t *testing.T) {
	r, bs, buf := started(t, Options{Retention: LatestN, Capacity: 3}, "a")
	run(r, bs[0], 10)
	got := stop(t, r, buf)
	if o := obsOf(got.spans, 0); !slices.Equal(o, []int64{8, 9, 10}) {
		t.Errorf("kept %v, want [8 9 10]", o)
	}
	if got.spans[2].Outcome != "failure" { // the 10th span's outcome: 9 % 4 = 1
		t.Errorf("obs 10 outcome %s", got.spans[2].Outcome)
	}
	if e := got.end.Benchmarks[0]; e.Retained != 3 || e.Omitted != 7 {
		t.Errorf("tally %+v", e)
	}
}

// The rows a seeded reservoir keeps are a fixed function of the seed: the
// expected rows are Algorithm R replayed on the same generator, and the
// literal rows pin the generator itself.
func TestReservoirSeededRows(t *testing.T) {
	r, bs, buf := started(t, Options{Capacity: 4, Seed: 7}, "a", "b")
	run(r, bs[0], 20)
	run(r, bs[1], 20)
	got := stop(t, r, buf)
	for b := range 2 {
		want := algorithmR(splitmix{7 ^ uint64(b)*0x9e3779b97f4a7c15}, 20, 4)
		if o := obsOf(got.spans, b); !slices.Equal(o, want) {
			t.Errorf("benchmark %d kept %v, Algorithm R keeps %v", b, o, want)
		}
	}
	if o := obsOf(got.spans, 0); !slices.Equal(o, []int64{6, 10, 12, 15}) {
		t.Errorf("benchmark 0 kept %v, want [6 10 12 15] (the generator changed?)", o)
	}
	if slices.Equal(obsOf(got.spans, 0), obsOf(got.spans, 1)) {
		t.Error("both benchmarks kept the same observations: their reservoirs share draws")
	}
	if e := got.end.Benchmarks[0]; e.Observed != 20 || e.Retained != 4 || e.Omitted != 16 {
		t.Errorf("tally %+v", e)
	}
}

// algorithmR is Vitter's Algorithm R written out: the sorted observation
// numbers a reservoir of c keeps from n.
func algorithmR(g splitmix, n, c int) []int64 {
	res := make([]int64, 0, c)
	for i := int64(1); i <= int64(n); i++ {
		if len(res) < c {
			res = append(res, i)
		} else if j := g.below(uint64(i)); j < uint64(c) {
			res[j] = i
		}
	}
	slices.Sort(res)
	return res
}

// The reservoir keeps every position with the same probability: over
// repeated recordings of 10,000 observations into 100 slots, each decile
// of positions is kept equally often (a chi-square test, 9 degrees of
// freedom, at the 0.1% level).
func TestReservoirUniformity(t *testing.T) {
	const n, c, reps, bins = 10000, 100, 2000, 10
	var counts [bins]float64
	for rep := range reps {
		b := &Benchmark{policy: Reservoir, rows: make([]row, c), rng: splitmix{uint64(rep + 1)}}
		for i := range int64(n) {
			if j := b.slot(i + 1); j >= 0 {
				b.rows[j].obs = i + 1
			}
		}
		for _, p := range b.rows {
			counts[(p.obs-1)*bins/n]++
		}
	}
	stat := chiSquare(counts[:], float64(reps*c)/bins)
	const critical = 27.877 // 99.9% quantile of chi-square with 9 degrees of freedom
	t.Logf("chi-square %.2f over %d deciles (9 df, p = %.3f); counts %v", stat, bins, chiSquareP9(stat), counts)
	if stat > critical {
		t.Errorf("chi-square %.2f > %.3f: the reservoir is not uniform over positions", stat, critical)
	}
}

func chiSquare(observed []float64, expected float64) float64 {
	var s float64
	for _, o := range observed {
		s += (o - expected) * (o - expected) / expected
	}
	return s
}

// chiSquareP9 is the upper tail of chi-square with 9 degrees of freedom
// at x: 1 - P(9/2, x/2), the regularized lower incomplete gamma function
// by its power series.
func chiSquareP9(x float64) float64 {
	a, z := 4.5, x/2
	term, sum := 1/a, 1/a
	for k := 1; k < 500; k++ {
		term *= z / (a + float64(k))
		sum += term
	}
	lg, _ := math.Lgamma(a)
	return 1 - math.Exp(a*math.Log(z)-z-lg)*sum
}

func TestChiSquareP9(t *testing.T) {
	if p := chiSquareP9(27.877); math.Abs(p-0.001) > 1e-5 {
		t.Errorf("p(27.877) = %g, want 0.001", p)
	}
	if p := chiSquareP9(8.343); math.Abs(p-0.5) > 1e-3 {
		t.Errorf("p(8.343) = %g, want 0.5", p)
	}
}

// A skewed store fails the same test: the test can fail.
func TestUniformityTestDetectsFirstN(t *testing.T) {
	var counts [10]float64
	counts[0] = 2000 * 100
	if chiSquare(counts[:], 20000) < 27.877 {
		t.Error("a first-N store passes the uniformity test")
	}
}
