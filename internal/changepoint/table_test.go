package changepoint

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

var table = flag.Bool("changepoint.table", false, "print the labelled-set table: E-divisive against a windowed t-test")

// family is one kind of labelled synthetic series.
type family struct {
	name string
	make func(rng *rand.Rand) (x []float64, changes []int)
}

// families: noise 1% (Gaussian) unless named otherwise; steps in noise SDs.
var families = []family{
	{"step 1 SD", func(r *rand.Rand) ([]float64, []int) { return stepAt(r, 60, 0.01, 0.01, 30) }},
	{"step 3 SD", func(r *rand.Rand) ([]float64, []int) { return stepAt(r, 60, 0.01, 0.03, 5+r.IntN(50)) }},
	{"step 10% in 5% noise", func(r *rand.Rand) ([]float64, []int) { return stepAt(r, 60, 0.05, 0.10, 5+r.IntN(50)) }},
	{"step 3 SD, 5% outliers", func(r *rand.Rand) ([]float64, []int) {
		x, c := stepAt(r, 60, 0.01, 0.03, 5+r.IntN(50))
		for i := range x {
			if r.Float64() < 0.05 {
				x[i] *= 1.2
			}
		}
		return x, c
	}},
	{"drift +5%, no step", func(r *rand.Rand) ([]float64, []int) {
		x := noisy(r, 60, 0.01)
		for i := range x {
			x[i] *= 1 + 0.05*float64(i)/60
		}
		return x, nil
	}},
	{"short: 15 points, 5 SD", func(r *rand.Rand) ([]float64, []int) { return stepAt(r, 15, 0.01, 0.05, 7) }},
	{"three steps of 4 SD", func(r *rand.Rand) ([]float64, []int) {
		x := noisy(r, 80, 0.01)
		step(x, 20, 0.04)
		step(x, 40, -0.04)
		step(x, 60, 0.04)
		return x, []int{20, 40, 60}
	}},
	{"flat", func(r *rand.Rand) ([]float64, []int) { return noisy(r, 60, 0.01), nil }},
	{"two steps up of 3 SD", func(r *rand.Rand) ([]float64, []int) {
		x := noisy(r, 60, 0.01)
		step(x, 20, 0.03)
		step(x, 40, 0.03)
		return x, []int{20, 40}
	}},
}

func stepAt(r *rand.Rand, n int, sd, rel float64, at int) ([]float64, []int) {
	return step(noisy(r, n, sd), at, rel), []int{at}
}

// windowedT is the baseline: Welch's t between the w points before and
// after each index; an alert where |t| exceeds limit and is the largest
// within w either side (Perfherder's method, with its window and limit).
func windowedT(x []float64, w int, limit float64) []int {
	n := len(x)
	t := make([]float64, n)
	for i := w; i+w <= n; i++ {
		m1, s1 := meanSD(x[i-w : i])
		m2, s2 := meanSD(x[i : i+w])
		se := math.Sqrt(s1*s1/float64(w) + s2*s2/float64(w))
		if se > 0 {
			t[i] = math.Abs(m2-m1) / se
		}
	}
	var out []int
	for i := range t {
		if t[i] <= limit {
			continue
		}
		peak := true
		for j := max(0, i-w); j < min(n, i+w+1); j++ {
			if t[j] > t[i] || (t[j] == t[i] && j < i) {
				peak = false
			}
		}
		if peak {
			out = append(out, i)
		}
	}
	return out
}

func meanSD(x []float64) (float64, float64) {
	var m, s float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return m, math.Sqrt(s / float64(len(x)-1))
}

// score counts reported change points within tol of a true one (each
// true change matched once).
func score(found, truth []int, tol int) (tp int) {
	used := make([]bool, len(truth))
	for _, f := range found {
		for i, c := range truth {
			if !used[i] && abs(float64(f-c)) <= float64(tol) {
				used[i] = true
				tp++
				break
			}
		}
	}
	return tp
}

type tally struct{ tp, reported, truth int }

func (t tally) f1() (p, r, f float64) {
	p, r = 1, 1
	if t.reported > 0 {
		p = float64(t.tp) / float64(t.reported)
	}
	if t.truth > 0 {
		r = float64(t.tp) / float64(t.truth)
	}
	if p+r > 0 {
		f = 2 * p * r / (p + r)
	}
	return p, r, f
}

// TestLabelledSet compares E-divisive means at level 0.01, read in
// windows of 50 points (DefaultOptions), the same with gradual drifts
// told apart from steps (Drifts: the change points left are scored), and
// over the whole series at once (Window 0, as before windows), with a
// windowed t-test (window 8,
// |t| > 5) on 100 series of each family, a detection counting within 2
// points of the truth. In a family without a true change F1 is 1 for a
// method that reports nothing and 0 otherwise: the reports are the
// measure there. Every series is also read with its last point appended
// to the segmentation of the others (Extend), which must equal the whole.
// Run: go test -run LabelledSet -v ./internal/changepoint -changepoint.table
func TestLabelledSet(t *testing.T) {
	if !*table {
		t.Skip("a measurement: -changepoint.table")
	}
	const per, tol = 100, 2
	t.Logf("%-24s | %-39s | %-50s | %-39s | %s", "family", "e-divisive, windows of 50", "the same, drifts apart (fb-history show)", "e-divisive, whole series", "windowed t-test")
	row := func(c tally) string {
		p, r, f := c.f1()
		return fmt.Sprintf("reported %3d P %.3f R %.3f F1 %.3f", c.reported, p, r, f)
	}
	for fi, fam := range families {
		var ed, apart, whole, wt tally
		drifts := 0
		for s := range uint64(per) {
			rng := rand.New(rand.NewPCG(s, uint64(fi)))
			x, truth := fam.make(rng)
			opt := DefaultOptions
			opt.Seed = s
			seg := Segment(x, opt)
			if d := sameChanges(Segment(x[:len(x)-1], opt).Extend(x, opt).Changes, seg.Changes); d != "" {
				t.Errorf("%s, series %d: incremental and full differ: %s", fam.name, s, d)
			}
			opt.Window = 0
			idx, all := indices(seg.Changes), indices(Detect(x, opt))
			base := windowedT(x, min(8, len(x)/2), 5)
			ed = ed.add(score(idx, truth, tol), len(idx), len(truth))
			d, steps := Drifts(x, seg.Changes)
			drifts += len(d)
			apart = apart.add(score(indices(steps), truth, tol), len(steps), len(truth))
			whole = whole.add(score(all, truth, tol), len(all), len(truth))
			wt = wt.add(score(base, truth, tol), len(base), len(truth))
		}
		t.Logf("%-24s | %s | %s drifts %3d | %s | %s", fam.name, row(ed), row(apart), drifts, row(whole), row(wt))
	}
	// How well can a change be placed at all? Knowing a series has exactly
	// one step, the least-squares split (the maximum-likelihood place in
	// Gaussian noise) and the energy split: the share of 2,000 series each
	// puts more than tol points from the step, a floor under the false
	// reports of any detector that places it.
	for fi, fam := range families {
		var ls, energy, n int
		for s := range uint64(2000) {
			x, truth := fam.make(rand.New(rand.NewPCG(s, uint64(fi))))
			if len(truth) != 1 {
				break
			}
			n++
			tau, _, _ := best(x, DefaultOptions.MinSize)
			if abs(float64(lsSplit(x, DefaultOptions.MinSize)-truth[0])) > tol {
				ls++
			}
			if abs(float64(tau-truth[0])) > tol {
				energy++
			}
		}
		if n > 0 {
			t.Logf("%-24s | one step known: misplaced by more than %d points in %.1f%% (least squares), %.1f%% (energy split)",
				fam.name, tol, 100*float64(ls)/float64(n), 100*float64(energy)/float64(n))
		}
	}
}

// lsSplit is the split of x (at least min points a side) that maximizes
// the between-sides sum of squares.
func lsSplit(x []float64, min int) int {
	var total, sum, q float64
	for _, v := range x {
		total += v
	}
	tau, n := 0, len(x)
	for t := 1; t < n; t++ {
		sum += x[t-1]
		if t < min || n-t < min {
			continue
		}
		m, k := float64(t), float64(n-t)
		d := sum/m - (total-sum)/k
		if s := m * k / (m + k) * d * d; tau == 0 || s > q {
			tau, q = t, s
		}
	}
	return tau
}

func (t tally) add(tp, reported, truth int) tally {
	return tally{t.tp + tp, t.reported + reported, t.truth + truth}
}
