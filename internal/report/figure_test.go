package report

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/model"
)

// figureSet is every fixture whose figures have goldens.
func figureSet(t *testing.T) map[string][]figure.Figure {
	t.Helper()
	set := map[string][]figure.Figure{}
	add := func(name string, r *model.Run) {
		figs, err := figure.OfRun(r)
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
	figs, err := figure.OfRecording(processRecording(t))
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
// written with its status and never drawn: the figure holds its status
// text, its text alternative names it, and only the axes it counts as
// drawn have interval bars.
func TestAxesUnavailableNotZero(t *testing.T) {
	fig, _, err := figure.DrawRun(axesFixtureRuns(t)[0], "axes")
	check(t, err)
	unavailable := map[string]string{"read_bytes": "partially collected", "cycles": "unsupported event", "ipc": "unsupported event"}
	svg := string(fig.SVG)
	for name, status := range unavailable {
		if !strings.Contains(svg, ">"+name+"</text>") || !strings.Contains(svg, ">unavailable: "+status+"</text>") {
			t.Errorf("the axes figure does not say %s is %s", name, status)
		}
		if !strings.Contains(fig.Alt, name+" unavailable: "+status) {
			t.Errorf("the text alternative does not say %s is %s:\n%s", name, status, fig.Alt)
		}
	}
	// Every drawn row has one error bar of three strokes (bar and caps)
	// in its verdict's colour: count the interval bars.
	var drawn int
	if _, err := fmt.Sscanf(fig.Alt, "Change of %d axes", &drawn); err != nil {
		t.Fatalf("alt %q: %v", fig.Alt, err)
	}
	if bars := strings.Count(svg, "stroke-width:1.5\" />"); bars != 3*drawn {
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
	figs, err := figure.OfRun(runs[0])
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
	fig, _, err := figure.DrawRun(runs[0], "axes")
	check(t, err)
	for _, f := range append(figs, *fig) {
		for _, bad := range []string{"NaN", "Inf"} {
			if strings.Contains(string(f.SVG), bad) {
				t.Errorf("%s figure has %s coordinates", f.Name, bad)
			}
		}
	}
}
