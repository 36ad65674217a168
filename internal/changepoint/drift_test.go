package changepoint

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDrifts(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	ramp := noisy(r, 60, 0.002)
	for i := range ramp {
		ramp[i] *= 1 + 0.08*float64(i)/59
	}
	stairs := noisy(r, 60, 0.002)
	step(stairs, 20, 0.04)
	step(stairs, 40, 0.04)
	updown := noisy(r, 60, 0.002)
	step(updown, 20, 0.04)
	step(updown, 40, -0.04)
	for _, tc := range []struct {
		name   string
		x      []float64
		drifts int
	}{
		{"a ramp is one drift", ramp, 1},
		{"two steps up stay steps", stairs, 0},
		{"a step up and one down stay steps", updown, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := Detect(tc.x, DefaultOptions)
			d, steps := Drifts(tc.x, cs)
			if len(d) != tc.drifts {
				t.Fatalf("%d change points %v: drifts %+v, want %d", len(cs), indices(cs), d, tc.drifts)
			}
			taken := 0
			for _, e := range d {
				taken += e.Changes
			}
			if taken+len(steps) != len(cs) {
				t.Errorf("drifts take %d and steps are %d of %d change points", taken, len(steps), len(cs))
			}
			if tc.drifts == 1 {
				e := d[0]
				if len(cs) < 2 || e.From != 0 || e.To != len(tc.x) || e.Changes != len(cs) {
					t.Errorf("drift %+v over change points %v: want the whole series, every change", e, indices(cs))
				}
				if got := (e.End/e.Start - 1) * 100; math.Abs(got-8) > 1 {
					t.Errorf("drift %+.2f%% from the fitted line, want about +8%%", got)
				}
			}
		})
	}
}

// A single change is a step whatever a line would say.
func TestDriftNeedsTwoChanges(t *testing.T) {
	x := make([]float64, 30)
	for i := range x {
		x[i] = 1 + float64(i)/30
	}
	cs := []Change{{Index: 15, Before: 1.2, After: 1.7}}
	if d, steps := Drifts(x, cs); len(d) != 0 || len(steps) != 1 {
		t.Errorf("drifts %+v, steps %+v: want the one change as a step", d, steps)
	}
}

// A climb that stops (or starts) at a flat stretch is a drift over the
// climb alone: the flat stretch is a level of its own.
func TestDriftEndsAtAPlateau(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	stops := noisy(r, 60, 0.002)
	starts := noisy(r, 60, 0.002)
	for i := range 60 {
		stops[i] *= 1 + 0.08*float64(min(i, 35))/35
		starts[i] *= 1 + 0.08*float64(max(i-25, 0))/34
	}
	for _, tc := range []struct {
		name     string
		x        []float64
		from, to [2]int // the bounds each end may take
	}{
		{"a climb that stops", stops, [2]int{0, 0}, [2]int{30, 45}},
		{"a climb that starts", starts, [2]int{18, 32}, [2]int{60, 60}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := Detect(tc.x, DefaultOptions)
			d, _ := Drifts(tc.x, cs)
			if len(d) != 1 {
				t.Fatalf("change points %v: drifts %+v, want one", indices(cs), d)
			}
			if e := d[0]; e.From < tc.from[0] || e.From > tc.from[1] || e.To < tc.to[0] || e.To > tc.to[1] {
				t.Errorf("drift over [%d, %d) of change points %v: want it to begin in %v and end in %v", e.From, e.To, indices(cs), tc.from, tc.to)
			}
		})
	}
}
