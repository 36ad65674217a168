package report

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// figureSet is every fixture whose figures have goldens.
func figureSet(t *testing.T) map[string][]Figure {
	t.Helper()
	set := map[string][]Figure{}
	add := func(name string, r *model.Run) {
		figs, err := runFigures(r)
		check(t, err)
		set[name] = figs
	}
	runs := fixtureRuns(t)
	add("paired", runs[0])
	add("rounds", runs[1])
	add("sequential", runs[2])
	add("single", runs[3])
	add("axes", axesFixtureRuns(t)[0])
	add("windows", envFixtureRuns(t)[0])
	add("sixteen", sixteenRun(t, 12))
	add("scan", scanRun(t))
	figs, err := recordingFigures(processRecording(t))
	check(t, err)
	set["recording"] = figs
	return set
}

func TestFigureGolden(t *testing.T) {
	for fixture, figs := range figureSet(t) {
		for _, f := range figs {
			golden(t, "figure-"+fixture+"-"+f.Name+".svg", f.SVG)
		}
	}
}

// TestFigureSets checks which plots each fixture has: a plot without
// data is left out.
func TestFigureSets(t *testing.T) {
	want := map[string]string{
		"paired":     "ratios distributions forest",
		"rounds":     "ratios distributions forest",
		"sequential": "distributions forest",
		"single":     "distributions",
		"axes":       "ratios distributions forest axes telemetry",
		"windows":    "ratios distributions forest",
		"sixteen":    "ratios distributions forest telemetry",
		"scan":       "ratios distributions forest scan telemetry",
		"recording":  "spans",
	}
	for fixture, figs := range figureSet(t) {
		var got []string
		for _, f := range figs {
			got = append(got, f.Name)
		}
		if g := strings.Join(got, " "); g != want[fixture] {
			t.Errorf("%s: plots %q, want %q", fixture, g, want[fixture])
		}
	}
}

var idAttr = regexp.MustCompile(`\sid="`)

// TestFigureSVG checks what inlining needs: one <svg> element with a
// viewBox and a title, no id attributes, no external reference, no
// embedded font, and the same bytes when drawn again.
func TestFigureSVG(t *testing.T) {
	again := figureSet(t)
	for fixture, figs := range figureSet(t) {
		for i, f := range figs {
			s := string(f.SVG)
			switch {
			case !strings.HasPrefix(s, "<svg ") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>"):
				t.Errorf("%s %s: not one <svg> element", fixture, f.Name)
			case !strings.Contains(s[:200], `viewBox="0 0 `):
				t.Errorf("%s %s: no viewBox on the root", fixture, f.Name)
			case !strings.Contains(s, "<title>"+f.Title+"</title>"):
				t.Errorf("%s %s: no <title>", fixture, f.Name)
			case idAttr.MatchString(s):
				t.Errorf("%s %s: has an id attribute", fixture, f.Name)
			case strings.Contains(s, "href=") || strings.Contains(s, "url(") || strings.Contains(s, "@font-face"):
				t.Errorf("%s %s: has an external reference or an embedded font", fixture, f.Name)
			case !bytes.Equal(f.SVG, again[fixture][i].SVG):
				t.Errorf("%s %s: drawn twice, the bytes differ", fixture, f.Name)
			}
		}
	}
}

// TestFigureAlt checks that each text alternative gives the key numbers.
func TestFigureAlt(t *testing.T) {
	set := figureSet(t)
	want := map[string][]string{
		"windows/ratios": {"sonic against stdlib", "32 pairs", "estimate -14.6%", "95% CI -16.1% .. -13.0%",
			"threshold ±1%", "2 retaken, 1 paused, 1 contaminated but kept"},
		"rounds/ratios":         {"4 contenders against base", "-34.8% (simd)", "+10.3% (tasked)"},
		"paired/distributions":  {"old 2.153 ms (50 samples)", "new 1.990 ms (50 samples)"},
		"sixteen/distributions": {"16 cases", "Medians from"},
		"rounds/forest":         {"4 comparisons", "simd vs base -34.8% (-36.3% .. -33.2%), contender faster", "inlined vs base -0.2%"},
		"sixteen/forest":        {"15 comparisons", "±1%"},
		"axes/axes": {"5 axes", "read_bytes unavailable: partially collected", "cycles unavailable: unsupported event",
			"ipc unavailable"},
		"axes/telemetry":  {"baseline average CPU", "peak RSS"},
		"recording/spans": {"get p50", "Processes over 10 records", "program peak CPU 45.0%"},
	}
	for key, parts := range want {
		fixture, name, _ := strings.Cut(key, "/")
		var alt string
		for _, f := range set[fixture] {
			if f.Name == name {
				alt = f.Alt
			}
		}
		for _, p := range parts {
			if !strings.Contains(alt, p) {
				t.Errorf("%s alt lacks %q:\n%s", key, p, alt)
			}
		}
	}
}

// TestAxesUnavailableNotZero checks that an axis without a value is
// written with its status and never drawn: no interval for it, and the
// figure holds its status text.
func TestAxesUnavailableNotZero(t *testing.T) {
	r := axesFixtureRuns(t)[0]
	rows := axisRows(r)
	unavailable := map[string]string{"read_bytes": "partially collected", "cycles": "unsupported event", "ipc": "unsupported event"}
	seen := 0
	for _, row := range rows {
		status, ok := unavailable[row.label]
		if !ok {
			continue
		}
		seen++
		if row.drawn || row.change != (interval{}) {
			t.Errorf("%s: drawn as %+v, want text only", row.label, row.change)
		}
		if row.text != row.label+" unavailable: "+status {
			t.Errorf("%s: text %q", row.label, row.text)
		}
	}
	if seen != len(unavailable) {
		t.Fatalf("found %d of the %d unavailable axes in %d rows", seen, len(unavailable), len(rows))
	}
	fig, _, err := axesFigure(r)
	check(t, err)
	svg := string(fig.SVG)
	for name, status := range unavailable {
		if !strings.Contains(svg, ">"+name+"</text>") || !strings.Contains(svg, ">unavailable: "+status+"</text>") {
			t.Errorf("the axes figure does not say %s is %s", name, status)
		}
	}
	// Every drawn row has one error bar of three strokes (bar and caps)
	// in its verdict's colour: count the interval bars.
	bars := strings.Count(svg, "stroke-width:1.5\" />")
	drawn := 0
	for _, row := range rows {
		if row.drawn {
			drawn++
		}
	}
	if bars != 3*drawn {
		t.Errorf("%d error-bar strokes for %d drawn axes, want %d", bars, drawn, 3*drawn)
	}
}

// TestFiguresOfEveryAxis draws a real exec run with --metrics all on a
// host without a PMU: many rows written as text (unavailable axes,
// absolute differences) once left gonum no width for the data (every
// coordinate NaN), which only a browser showed (tests/browser_test.go).
func TestFiguresOfEveryAxis(t *testing.T) {
	data, err := os.ReadFile("testdata/allaxes.ndjson")
	check(t, err)
	runs := loadFixture(t, data, "allaxes.ndjson")
	figs, err := runFigures(runs[0])
	check(t, err)
	if len(figs) < 4 {
		t.Fatalf("%d figures, want ratios, distributions, forest, axes and telemetry", len(figs))
	}
	// A status no one foresaw, as long as a sentence, is written whole.
	long := strings.Repeat("a status nobody foresaw, ", 12)
	for k := range runs[0].Comparisons {
		for a := range runs[0].Comparisons[k].Axes {
			if ax := &runs[0].Comparisons[k].Axes[a]; !ax.Available {
				ax.Status = long
			}
		}
	}
	fig, _, err := axesFigure(runs[0])
	check(t, err)
	for _, f := range append(figs, *fig) {
		for _, bad := range []string{"NaN", "Inf"} {
			if strings.Contains(string(f.SVG), bad) {
				t.Errorf("%s figure has %s coordinates", f.Name, bad)
			}
		}
	}
}

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
			proc := &ndjson.ProcessRef{Block: i / 3}
			r.Samples = append(r.Samples,
				ndjson.Sample{Case: 0, Unit: u, Pos: 0, OpNS: 100, Proc: proc},
				ndjson.Sample{Case: 1, Unit: u, Pos: 1, OpNS: 101, Proc: proc})
		}
		r.Windows = []ndjson.Window{
			{FirstUnit: 3, Units: 2, Verdict: ndjson.WindowContaminated, Action: ndjson.ActionRetaken},
			{FirstUnit: 0, Units: 3, Verdict: "clean", Action: "kept"},
		}
		return r
	}
	// Units 0..2 in block 0 and 3..5 in block 1; unit 4 has no pair drawn.
	r := run(0, 1, 2, 3, 5)
	r.Samples = r.Samples[:len(r.Samples)-1] // unit 5 lost its contender: not drawn
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
