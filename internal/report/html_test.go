package report

import (
	"bytes"
	"fmt"
	"testing"
)

// fakeFigures stand in for the plots: a tiny SVG with a title, one per
// name, so the page's handling of figures is tested on its own.
func fakeFigures(owner string, names ...string) []Figure {
	figs := make([]Figure, len(names))
	for i, n := range names {
		title := n + " of " + owner
		figs[i] = Figure{Name: n, Title: title, Alt: "Alt text: " + title + ", " + fmt.Sprint(i+1) + " of " + fmt.Sprint(len(names)) + ".",
			SVG: []byte(`<?xml version="1.0"?>` + "\n" + `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20"><title>` +
				title + `</title><rect width="40" height="20" fill="#0072B2"/></svg>`)}
	}
	return figs
}

// renderHTML renders s with fake figures for each run and recording.
func renderHTML(t *testing.T, s *Stream, opt Options) []byte {
	t.Helper()
	runFigs := make([][]Figure, len(s.Runs))
	for i, r := range s.Runs {
		runFigs[i] = fakeFigures(shortID(r.Run.RunID), "ratios", "forest")
	}
	recFigs := make([][]Figure, len(s.Recordings))
	for i, rec := range s.Recordings {
		recFigs[i] = fakeFigures(shortID(rec.Record.RunID), "spans")
	}
	markRepeats(s.Runs)
	var buf bytes.Buffer
	if err := htmlPage(&buf, s, opt, runFigs, recFigs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestHTMLGolden(t *testing.T) {
	runs, axed, env := fixtureRuns(t), axesFixtureRuns(t), envFixtureRuns(t)
	tests := []struct {
		name string
		s    *Stream
		opt  Options
	}{
		{"html", &Stream{Runs: runs}, Options{}},
		{"html-axes", &Stream{Runs: axed}, Options{}},
		{"html-axes-details", &Stream{Runs: axed[1:]}, Options{Details: true}},
		{"html-env", &Stream{Runs: env}, Options{}},
		{"recording-html-fake", recordingStream(t), Options{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.name+".html", renderHTML(t, tc.s, tc.opt))
		})
	}
}
