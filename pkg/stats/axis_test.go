package stats

import (
	"strings"
	"testing"
)

func TestCompareAxisMethodSwitch(t *testing.T) {
	pos := []float64{4, 4, 4, 4}
	cases := []struct {
		name     string
		ref, con []float64
		want     Method
	}{
		{"positive", pos, []float64{2, 2, 2, 2}, RelativeRatio},
		{"zero in contender", pos, []float64{2, 0, 2, 2}, AbsoluteDifference},
		{"negative in reference", []float64{4, -1, 4, 4}, pos, AbsoluteDifference},
	}
	for _, c := range cases {
		a, err := CompareAxis(c.ref, c.con, nil, LowerIsBetter, testBootstrap, 1, "axis")
		if err != nil {
			t.Fatal(err)
		}
		if a.Method != c.want {
			t.Errorf("%s: method %v, want %v", c.name, a.Method, c.want)
		}
	}
}

func TestCompareAxisDirection(t *testing.T) {
	ref := []float64{100, 100, 100, 100, 100, 100}
	half := []float64{50, 50, 50, 50, 50, 50} // con/ref = 1/2: change -50%
	cases := []struct {
		name string
		con  []float64
		dir  Direction
		want AxisVerdict
	}{
		{"less CPU", half, LowerIsBetter, ContenderBetter},
		{"less IPC", half, HigherIsBetter, ReferenceBetter},
		{"diagnostic", half, Diagnostic, AxisDiagnostic},
		{"more CPU", []float64{200, 200, 200, 200, 200, 200}, LowerIsBetter, ReferenceBetter},
		{"more IPC", []float64{200, 200, 200, 200, 200, 200}, HigherIsBetter, ContenderBetter},
		{"same", ref, LowerIsBetter, AxisEquivalent},
		{"same, higher better", ref, HigherIsBetter, AxisEquivalent},
		// ratios 1.1, 0.9 alternate: interval straddles the 1% threshold
		{"noisy", []float64{110, 90, 110, 90, 110, 90}, LowerIsBetter, AxisInconclusive},
	}
	for _, c := range cases {
		a, err := CompareAxis(ref, c.con, nil, c.dir, testBootstrap, 1, "axis")
		if err != nil {
			t.Fatal(err)
		}
		if a.Verdict != c.want {
			t.Errorf("%s: verdict %v (change %v [%v,%v]), want %v", c.name, a.Verdict, a.Change, a.Lo, a.Hi, c.want)
		}
	}
	a, _ := CompareAxis(ref, half, nil, Diagnostic, testBootstrap, 1, "axis")
	// exp(ln(1/2)) - 1 = -0.5 for every pair: change -50% with a zero-width interval.
	if a.Change != -50 || a.Lo != -50 || a.Hi != -50 || a.RefMedian != 100 || a.ConMedian != 50 {
		t.Errorf("diagnostic axis still needs its interval: %+v", a)
	}
}

func TestCompareAxisAbsolute(t *testing.T) {
	ref := []float64{0, 1, 0, 2, 1, 0}
	cases := []struct {
		name string
		con  []float64
		dir  Direction
		want AxisVerdict
		lo   float64 // expected interval, when exact
		hi   float64
	}{
		// con-ref = 1 for every pair: the interval [1,1] excludes zero.
		{"more faults", []float64{1, 2, 1, 3, 2, 1}, LowerIsBetter, ReferenceBetter, 1, 1},
		{"more of a good thing", []float64{1, 2, 1, 3, 2, 1}, HigherIsBetter, ContenderBetter, 1, 1},
		// con-ref = -1 everywhere.
		{"fewer faults", []float64{-1, 0, -1, 1, 0, -1}, LowerIsBetter, ContenderBetter, -1, -1},
		// every difference exactly 0: [0,0], no change at all.
		{"identical", ref, LowerIsBetter, AxisEquivalent, 0, 0},
	}
	for _, c := range cases {
		a, err := CompareAxis(ref, c.con, nil, c.dir, testBootstrap, 1, "faults")
		if err != nil {
			t.Fatal(err)
		}
		if a.Method != AbsoluteDifference || a.Verdict != c.want || a.Lo != c.lo || a.Hi != c.hi || a.Change != c.lo {
			t.Errorf("%s: %v %v change %v [%v,%v], want %v [%v,%v]",
				c.name, a.Method, a.Verdict, a.Change, a.Lo, a.Hi, c.want, c.lo, c.hi)
		}
	}
	// Differences -1 and +1 alternating: the interval contains zero.
	a, _ := CompareAxis(ref, []float64{1, 0, 1, 1, 2, -1}, nil, LowerIsBetter, testBootstrap, 1, "faults")
	if a.Verdict != AxisInconclusive || !(a.Lo < 0 && a.Hi > 0) {
		t.Errorf("mixed differences: %v [%v,%v], want inconclusive straddling 0", a.Verdict, a.Lo, a.Hi)
	}
}

func TestCompareAxisErrors(t *testing.T) {
	ok := []float64{1, 2, 3}
	cases := []struct {
		ref, con []float64
		dir      Direction
		wantErr  string
	}{
		{ok, []float64{1, 2}, LowerIsBetter, "reference has 3 samples but contender has 2"},
		{[]float64{1}, []float64{1}, LowerIsBetter, "1 pairs"},
		{ok, []float64{1, nan(), 3}, LowerIsBetter, "pair 1 is (2, NaN)"},
		{ok, ok, Direction(9), "unknown direction 9"},
	}
	for _, c := range cases {
		_, err := CompareAxis(c.ref, c.con, nil, c.dir, testBootstrap, 1, "x")
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("error %v, want one containing %q", err, c.wantErr)
		}
	}
}

func TestVerdictStrings(t *testing.T) {
	for v, want := range map[Verdict]string{
		Inconclusive: "inconclusive", Equivalent: "practically equivalent",
		ContenderFaster: "contender faster", ReferenceFaster: "reference faster",
	} {
		if v.String() != want {
			t.Errorf("Verdict %d = %q, want %q", int(v), v.String(), want)
		}
	}
	for v, want := range map[AxisVerdict]string{
		AxisInconclusive: "inconclusive", AxisEquivalent: "practically equivalent",
		ContenderBetter: "contender better", ReferenceBetter: "reference better",
		AxisDiagnostic: "diagnostic",
	} {
		if v.String() != want {
			t.Errorf("AxisVerdict %d = %q, want %q", int(v), v.String(), want)
		}
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		lo, hi, t float64
		want      Verdict
	}{
		{-5, -2, 1, ContenderFaster}, // whole interval below -1
		{2, 5, 1, ReferenceFaster},   // whole interval above +1
		{-0.5, 0.8, 1, Equivalent},   // inside ±1
		{-1, 1, 1, Equivalent},       // on the threshold counts as inside
		{-2, 0.5, 1, Inconclusive},   // straddles -1
		{-1, -1, 1, Equivalent},      // exactly -1 is not beyond it
		{-3, 3, 1, Inconclusive},     // wider than the band
		{0, 0, 0, Equivalent},        // zero threshold, zero-width interval
		{-0.1, -0.01, 0, ContenderFaster},
	}
	for _, c := range cases {
		if got := Classify(c.lo, c.hi, c.t); got != c.want {
			t.Errorf("Classify(%v, %v, %v) = %v, want %v", c.lo, c.hi, c.t, got, c.want)
		}
	}
}
