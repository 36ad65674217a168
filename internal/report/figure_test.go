package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// figureSet is every fixture whose figures have goldens.
func figureSet(t *testing.T) map[string][]Figure {
	t.Helper()
	set := map[string][]Figure{}
	add := func(name string, r *Run) {
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
