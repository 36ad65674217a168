package figure

import (
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TestRatioScaleClipsOnlyFarOutliers: a preempted pair far from a
// thousand others is pinned to the edge of a scale that fits the bulk,
// the intervals and the threshold; without such a pair nothing is.
func TestRatioScaleClipsOnlyFarOutliers(t *testing.T) {
	k := []*ndjson.Comparison{{ChangeCI: [2]float64{-1, 1}, ThresholdPct: 1}}
	bulk := make([]pairChange, 1000)
	for i := range bulk {
		bulk[i] = pairChange{x: float64(i), pct: float64(i%11) - 5}
	}
	lo, hi := ratioScale([][]pairChange{bulk}, -5, 5, k)
	if lo != -5 || hi != 5 {
		t.Errorf("no outlier: scale %v..%v, want -5..5", lo, hi)
	}
	spiked := append(slices.Clone(bulk), pairChange{x: 1000, pct: 400})
	lo, hi = ratioScale([][]pairChange{spiked}, -5, 400, k)
	if lo != -5 || hi >= 10 || hi < 5 {
		t.Errorf("one outlier: scale %v..%v, want -5..(5..10)", lo, hi)
	}
	got, n := clampChanges(spiked, lo, hi, 0)
	if n != 1 || got[1000].pct != hi || got[0].pct != spiked[0].pct {
		t.Errorf("clamped %d, last %v", n, got[1000].pct)
	}
}

// TestThinOutside: a heavy tail's points beyond the whiskers are thinned
// by value, keeping the lowest and the highest; a short list is kept.
func TestThinOutside(t *testing.T) {
	v := make([]float64, 5000)
	var out []int
	for i := range v {
		v[i] = float64((i * 7919) % 5000) // a permutation of 0..4999
		out = append(out, i)
	}
	kept := thinOutside(out, v, 120)
	if len(kept) != 120 {
		t.Fatalf("kept %d", len(kept))
	}
	lo, hi := v[kept[0]], v[kept[len(kept)-1]]
	if lo != 0 || hi != 4999 {
		t.Errorf("extremes %v and %v, want 0 and 4999", lo, hi)
	}
	if got := thinOutside(out[:50], v, 120); len(got) != 50 {
		t.Errorf("short list thinned to %d", len(got))
	}
}

// TestWindowSpansInBlocks: in a run of process blocks the pairs are drawn
// by ordinal, and a retaken window shades the ordinals of its units; when
// unit numbers repeat across blocks no window can be placed.
func TestWindowSpansInBlocks(t *testing.T) {
	run := func(units ...int) *model.Run {
		r := &model.Run{}
		for i, u := range units {
			block := i / 3
			r.Points = append(r.Points,
				model.Point{Case: 0, Unit: u, Pos: 0, OpNS: 100, Block: block},
				model.Point{Case: 1, Unit: u, Pos: 1, OpNS: 101, Block: block})
		}
		r.Windows = []ndjson.Window{
			{FirstUnit: 3, Units: 2, Verdict: ndjson.WindowContaminated, Action: ndjson.ActionRetaken},
			{FirstUnit: 0, Units: 3, Verdict: "clean", Action: "kept"},
		}
		return r
	}
	// Units 0..2 in block 0 and 3..5 in block 1; unit 4 has no pair drawn.
	r := run(0, 1, 2, 3, 5)
	r.Points = r.Points[:len(r.Points)-1] // unit 5 lost its contender: not drawn
	spans := windowSpans(r, pairChanges(r, 1))
	if len(spans) != 1 || spans[0].Lo != 2.5 || spans[0].Hi != 3.5 {
		t.Fatalf("spans %+v, want one band over ordinal 3 (unit 3)", spans)
	}
	if spans := windowSpans(run(0, 1, 2, 0, 1, 2), pairChanges(run(0, 1, 2, 0, 1, 2), 1)); spans != nil {
		t.Errorf("units numbered afresh per block: %+v, want none", spans)
	}
}

// TestScanAxis: a scan is drawn against its numeric parameter with the
// most values; a run without params, or with no numeric parameter, has
// no scan plot.
func TestScanAxis(t *testing.T) {
	run := func(params ...map[string]string) *model.Run {
		r := &model.Run{}
		for i, p := range params {
			r.Run.Cases = append(r.Run.Cases, ndjson.Case{Index: i, Params: p})
		}
		return r
	}
	for _, tc := range []struct {
		r    *model.Run
		want string
	}{
		{run(map[string]string{"t": "1", "c": "gcc"}, map[string]string{"t": "2", "c": "gcc"}, map[string]string{"t": "1", "c": "clang"}), "t"},
		{run(map[string]string{"x": "0.25", "y": "1"}, map[string]string{"x": "0.5", "y": "2"}, map[string]string{"x": "0.75", "y": "2"}), "x"},
		{run(map[string]string{"c": "gcc"}, map[string]string{"c": "clang"}), ""},
		{run(nil, nil), ""},
	} {
		if got := scanAxis(tc.r); got != tc.want {
			t.Errorf("%+v: axis %q, want %q", tc.r.Run.Cases, got, tc.want)
		}
	}
}

// TestAxisRowsUnavailable: an axis without a value is a row of text with
// its status, never an interval at zero.
func TestAxisRowsUnavailable(t *testing.T) {
	r := &model.Run{Comparisons: []ndjson.Comparison{{Contender: 1, ThresholdPct: 1, Axes: []ndjson.AxisComparison{
		{Name: "wall", Unit: "ns/op", Available: true, Status: "collected",
			Result: &ndjson.AxisResult{Method: "relative ratio", Change: -5, CI: [2]float64{-6, -4}, Verdict: "contender better"}},
		{Name: "cycles", Unit: "cycles/op", Status: "unsupported_event"},
	}}}}
	rows := axisRows(r)
	if len(rows) != 2 || !rows[0].drawn || rows[0].change != (interval{x: -5, lo: -6, hi: -4}) {
		t.Fatalf("rows %+v", rows)
	}
	if rows[1].drawn || rows[1].change != (interval{}) || rows[1].text != "cycles unavailable: unsupported event" {
		t.Errorf("unavailable row %+v, want text only", rows[1])
	}
}

// TestSampledNote: a figure drawn from a seeded sample of a run's units
// says so in its text alternative, and one drawn from all of them does not.
func TestSampledNote(t *testing.T) {
	r := &model.Run{Comparisons: []ndjson.Comparison{{Reference: 0, Contender: 1, Design: ndjson.DesignPaired, ThresholdPct: 1}}}
	r.Run.Design = ndjson.DesignPaired
	r.Run.Cases = []ndjson.Case{{Name: "a"}, {Name: "b"}}
	for u := range 3 {
		r.Points = append(r.Points, model.Point{Case: 0, Unit: u, Pos: 0, OpNS: 100, Block: -1},
			model.Point{Case: 1, Unit: u, Pos: 1, OpNS: 99, Block: -1})
	}
	for _, thinned := range []bool{false, true} {
		r.Thinned = thinned
		fig, _, err := DrawRun(r, "ratios")
		if err != nil || fig == nil {
			t.Fatalf("ratios: %v", err)
		}
		note := "Drawn from a seeded sample of 3 of the run's pairs."
		if strings.Contains(fig.Alt, note) != thinned {
			t.Errorf("thinned %v: alt %q", thinned, fig.Alt)
		}
	}
}
