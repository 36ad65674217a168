package report

import (
	"bytes"
	"fmt"
	stdhtml "html"
	"regexp"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/html"
	"github.com/flybench/flybench/internal/report/model"
)

// fakeFigures stand in for the plots: a tiny SVG with a title, one per
// name, so the page's handling of figures is tested on its own.
func fakeFigures(owner string, names ...string) []figure.Figure {
	figs := make([]figure.Figure, len(names))
	for i, n := range names {
		title := n + " of " + owner
		figs[i] = figure.Figure{Name: n, Title: title, Alt: "Alt text: " + title + ", " + fmt.Sprint(i+1) + " of " + fmt.Sprint(len(names)) + ".",
			SVG: []byte(`<?xml version="1.0"?>` + "\n" + `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><title>` +
				title + `</title><rect width="40" height="20" fill="#0072B2"/></svg>`)}
	}
	return figs
}

// renderHTML renders s with fake figures for each run and recording.
func renderHTML(t *testing.T, s *model.Stream) []byte {
	t.Helper()
	runFigs := make([][]figure.Figure, len(s.Runs))
	for i, r := range s.Runs {
		runFigs[i] = fakeFigures(model.ShortID(r.Run.RunID), "ratios", "forest")
	}
	recFigs := make([][]figure.Figure, len(s.Recordings))
	for i, rec := range s.Recordings {
		recFigs[i] = fakeFigures(model.ShortID(rec.Record.RunID), "spans")
	}
	model.MarkRepeats(s.Runs)
	var buf bytes.Buffer
	if err := html.WritePage(&buf, s, runFigs, recFigs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// styleElement is the page's style, the same on every page.
var styleElement = regexp.MustCompile(`(?s)<style>.*?</style>`)

func TestHTMLGolden(t *testing.T) {
	runs, axed, env := fixtureRuns(t), axesFixtureRuns(t), envFixtureRuns(t)
	tests := []struct {
		name string
		s    *model.Stream
	}{
		{"html", &model.Stream{Runs: runs}},
		{"html-axes", &model.Stream{Runs: axed}},
		{"html-env", &model.Stream{Runs: env}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The style is the same on every page: kept once, in the html package.
			page := styleElement.ReplaceAll(renderHTML(t, tc.s), []byte("<style>/* pageCSS */</style>"))
			golden(t, tc.name+".html", page)
		})
	}
}

// pageText is the page's text as a reader sees it: tags dropped,
// entities decoded.
func pageText(page []byte) string {
	return stdhtml.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(string(page), ""))
}

// TestHTMLEscapes: names, warnings and figure texts from the stream are
// text on the page, never markup.
func TestHTMLEscapes(t *testing.T) {
	runs := fixtureRuns(t)[:1]
	r := runs[0]
	evil, quotes := "<script>alert(1)</script>", `"&'`
	r.Run.Cases[0].Name, r.Run.Cases[1].Name = evil, quotes
	r.Run.Cases[1].Command = `./new "<b>bold</b>" & more`
	r.Comparisons[0].ReferenceName, r.Comparisons[0].ContenderName = evil, quotes
	r.Analysis.Warnings = []string{"<img src=x onerror=alert(2)>"}
	figs := []figure.Figure{{Name: "forest", Title: "<i>" + quotes, Alt: evil,
		SVG: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><title>x</title></svg>`)}}
	var buf bytes.Buffer
	if err := html.WritePage(&buf, &model.Stream{Runs: runs}, [][]figure.Figure{figs}, nil); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, raw := range []string{"<script", "<img", "<b>bold", "<i>", `"&'`} {
		if strings.Contains(page, raw) {
			t.Errorf("page holds %q unescaped", raw)
		}
	}
	text := pageText(buf.Bytes())
	for _, want := range []string{evil + " vs " + quotes, quotes + " faster", "<img src=x onerror=alert(2)>",
		`./new "<b>bold</b>" & more`, "<i>" + quotes} {
		if !strings.Contains(text, want) {
			t.Errorf("page text lacks %q", want)
		}
	}
	if !strings.Contains(page, `aria-label="&lt;script&gt;alert(1)&lt;/script&gt;"`) {
		t.Error("the SVG's aria-label is not the escaped text alternative")
	}
}

// allHTMLPages renders every fixture, runs and recordings, as pages with
// fake figures.
func allHTMLPages(t *testing.T) map[string][]byte {
	return map[string][]byte{
		"runs":       renderHTML(t, &model.Stream{Runs: fixtureRuns(t)}),
		"axes":       renderHTML(t, &model.Stream{Runs: axesFixtureRuns(t)}),
		"env":        renderHTML(t, &model.Stream{Runs: envFixtureRuns(t)}),
		"recordings": renderHTML(t, recordingStream(t)),
		"color":      renderHTML(t, &model.Stream{Runs: fixtureRuns(t)[:2]}),
	}
}

// TestHTMLSelfContained: the page loads nothing from anywhere.
func TestHTMLSelfContained(t *testing.T) {
	remote := regexp.MustCompile(`(?i)(src|href|xlink:href|action|srcset)\s*=\s*["']?\s*(https?:|//|file:|ftp:)`)
	loads := regexp.MustCompile(`(?i)<(script|link|iframe|img|object|embed|audio|video|source|base)\b`)
	url := regexp.MustCompile(`(?i)url\(\s*["']?([^"')]*)`)
	for name, page := range allHTMLPages(t) {
		s := string(page)
		if !strings.HasPrefix(s, "<!DOCTYPE html>\n") {
			t.Errorf("%s: page does not start with <!DOCTYPE html>", name)
		}
		if m := remote.FindString(s); m != "" {
			t.Errorf("%s: page refers to %q", name, m)
		}
		if m := loads.FindString(s); m != "" {
			t.Errorf("%s: page has a %q element", name, m)
		}
		if i := strings.IndexByte(s, 0x1b); i >= 0 {
			t.Errorf("%s: ESC byte at offset %d: a console colour leaked into the page", name, i)
		}
		if strings.Contains(strings.ToLower(s), "@import") {
			t.Errorf("%s: page imports a stylesheet", name)
		}
		for _, m := range url.FindAllStringSubmatch(s, -1) {
			if !strings.HasPrefix(m[1], "#") && !strings.HasPrefix(m[1], "data:") {
				t.Errorf("%s: page loads url(%s)", name, m[1])
			}
		}
		for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(s, -1) {
			if id := strings.TrimPrefix(m[1], "#"); id == m[1] || !strings.Contains(s, ` id="`+id+`"`) {
				t.Errorf("%s: link %q goes to no anchor on the page", name, m[1])
			}
		}
	}
}

// TestHTMLFigureCaptions: every figure is on the page with its heading,
// its SVG naming its text alternative, and the alternative as caption.
func TestHTMLFigureCaptions(t *testing.T) {
	s := recordingStream(t)
	s.Runs = fixtureRuns(t)
	page := string(renderHTML(t, s))
	var captions []string
	for _, m := range regexp.MustCompile(`(?s)<figcaption>(.*?)</figcaption>`).FindAllStringSubmatch(page, -1) {
		captions = append(captions, stdhtml.UnescapeString(m[1]))
	}
	var figs []figure.Figure
	for _, r := range s.Runs {
		figs = append(figs, fakeFigures(model.ShortID(r.Run.RunID), "ratios", "forest")...)
	}
	for _, rec := range s.Recordings {
		figs = append(figs, fakeFigures(model.ShortID(rec.Record.RunID), "spans")...)
	}
	var want []string
	for _, f := range figs {
		want = append(want, f.Alt)
		if !strings.Contains(page, `<svg role="img" aria-label="`+stdhtml.EscapeString(f.Alt)+`"`) {
			t.Errorf("figure %q: its SVG has no role and label", f.Title)
		}
		if !strings.Contains(page, ">"+f.Title+"</h3>") || !strings.Contains(page, ">"+f.Title+"</a>") {
			t.Errorf("figure %q has no heading or no entry in the contents", f.Title)
		}
	}
	if len(want) != 10 || strings.Join(captions, "\n") != strings.Join(want, "\n") {
		t.Errorf("figcaptions\n%s\nwant the 10 figures' alternatives\n%s", strings.Join(captions, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(page, "<?xml") {
		t.Error("a figure's XML declaration was kept")
	}
}

// TestHTMLUnavailableAxes: an axis without a value is shown by its
// status and reason, in the comparison's table or the matrix's notes.
func TestHTMLUnavailableAxes(t *testing.T) {
	runs := axesFixtureRuns(t)
	text := pageText(renderHTML(t, &model.Stream{Runs: runs}))
	seen := 0
	for _, r := range runs {
		for _, k := range r.Comparisons {
			for i := range k.Axes {
				a := &k.Axes[i]
				if model.Collected(a) {
					continue
				}
				seen++
				if !strings.Contains(text, model.UnavailableText(a.Status, a.Reason)) {
					t.Errorf("axis %s of %s shows no %q", a.Name, k.ContenderName, model.UnavailableText(a.Status, a.Reason))
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("the axes fixture has no unavailable axis")
	}
}
