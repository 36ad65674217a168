// Package html is fb-report --format html: one self-contained page with,
// for each run and recording, its header facts, its warnings, its figures
// inline as SVG and the console's cards as tables. It loads nothing: no
// script, stylesheet, font or image from anywhere.
package html

import (
	"bytes"
	"fmt"
	stdhtml "html"
	"html/template"
	"strconv"

	"github.com/flybench/flybench/internal/report/console"
	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// htmlSection is a run or a recording on the page.
type htmlSection struct {
	ID, Kind, Title string
	Facts           []htmlFact
	Cases           []htmlCase
	Warnings        []string
	Figures         []htmlFigure
	Cards           []*htmlCard
}

// htmlFigure is a Figure ready for the page: its SVG carries its text
// alternative and its anchor is unique on the page.
type htmlFigure struct {
	ID, Title, Alt string
	SVG            template.HTML
}

// htmlDoc is the whole page.
type htmlDoc struct {
	Title    string
	Sections []htmlSection
	Suites   []*htmlCard
	AA       []*htmlCard // the A/A series' cards
}

// Write renders the page of a stream with every figure its runs and
// recordings have data for.
func Write(w *bytes.Buffer, s *model.Stream) error {
	runFigs, err := plotEach(s.Runs, figure.OfRun, func(r *model.Run) string { return "run " + model.ShortID(r.Run.RunID) })
	if err != nil {
		return err
	}
	recFigs, err := plotEach(s.Recordings, figure.OfRecording,
		func(rec *model.Recording) string { return "recording " + model.ShortID(rec.Record.RunID) })
	if err != nil {
		return err
	}
	return WritePage(w, s, runFigs, recFigs)
}

// plotEach renders the figures of each item; an error names the item.
func plotEach[T any](items []T, plot func(T) ([]figure.Figure, error), name func(T) string) ([][]figure.Figure, error) {
	out := make([][]figure.Figure, len(items))
	for i, it := range items {
		figs, err := plot(it)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", name(it), err)
		}
		out[i] = figs
	}
	return out, nil
}

// WritePage renders the page with the figures given for each run and each
// recording, in stream order.
func WritePage(w *bytes.Buffer, s *model.Stream, runFigs, recFigs [][]figure.Figure) error {
	doc := htmlDoc{}
	for i, r := range s.Runs {
		sec, err := htmlRunSection(r, "run-"+strconv.Itoa(i+1), runFigs[i])
		if err != nil {
			return err
		}
		doc.Sections = append(doc.Sections, sec)
	}
	for i, rec := range s.Recordings {
		sec, err := htmlRecordingSection(rec, "recording-"+strconv.Itoa(i+1), recFigs[i])
		if err != nil {
			return err
		}
		doc.Sections = append(doc.Sections, sec)
	}
	h := &htmlSink{}
	console.SuiteCards(h, s.Runs)
	doc.Suites = h.cards
	h = &htmlSink{}
	console.AACards(h, s.Runs)
	doc.AA = h.cards
	doc.Title = pageTitle(doc.Sections)
	if err := pageTemplate.Execute(w, doc); err != nil {
		return fmt.Errorf("render html: %w", err)
	}
	return nil
}

// htmlRunSection is a run's section. A page is read, not scrolled past:
// every card is on it, as the console gives them with --details.
func htmlRunSection(r *model.Run, id string, figs []figure.Figure) (htmlSection, error) {
	h := &htmlSink{}
	console.RunCards(h, r, true)
	sec := htmlSection{ID: id, Kind: "run", Title: words.Title(r), Facts: runFacts(r), Cases: runCases(r),
		Warnings: words.ProminentWarnings(r), Cards: h.cards}
	var err error
	sec.Figures, err = htmlFigures(id, figs)
	return sec, err
}

func htmlRecordingSection(rec *model.Recording, id string, figs []figure.Figure) (htmlSection, error) {
	h := &htmlSink{}
	console.RecordingCards(h, rec)
	sec := htmlSection{ID: id, Kind: "recording", Title: model.ShortID(rec.Record.RunID),
		Facts: recordingFacts(rec), Warnings: rec.Warnings(), Cards: h.cards}
	var err error
	sec.Figures, err = htmlFigures(id, figs)
	return sec, err
}

// pageTitle names the page after its first run or recording.
func pageTitle(secs []htmlSection) string {
	if len(secs) == 0 {
		return "flybench report"
	}
	first := secs[0].Title
	if secs[0].Kind != "run" {
		first = secs[0].Kind + " " + first
	}
	if len(secs) == 1 {
		return "flybench report: " + first
	}
	return fmt.Sprintf("flybench report: %s and %d more", first, len(secs)-1)
}

// htmlFigures prepares a section's figures: each gets an anchor under the
// section's and an SVG that names its text alternative.
func htmlFigures(section string, figs []figure.Figure) ([]htmlFigure, error) {
	out := make([]htmlFigure, 0, len(figs))
	for i, f := range figs {
		svg, err := accessibleSVG(f)
		if err != nil {
			return nil, err
		}
		name := f.Name
		if name == "" {
			name = strconv.Itoa(i + 1)
		}
		out = append(out, htmlFigure{ID: section + "-" + name, Title: f.Title, Alt: f.Alt, SVG: template.HTML(svg)})
	}
	return out, nil
}

// accessibleSVG is the figure's <svg> element, anything before it (an XML
// declaration, a comment) dropped, with role="img" and the text
// alternative as its aria-label unless it sets a role of its own.
func accessibleSVG(f figure.Figure) ([]byte, error) {
	start := bytes.Index(f.SVG, []byte("<svg"))
	if start < 0 {
		return nil, fmt.Errorf("figure %q holds no <svg> element", f.Name)
	}
	svg := f.SVG[start:]
	end := bytes.IndexByte(svg, '>')
	if end < 0 {
		return nil, fmt.Errorf("figure %q: the <svg> tag is not closed", f.Name)
	}
	if bytes.Contains(svg[:end], []byte(" role=")) {
		return svg, nil
	}
	label := f.Alt
	if label == "" {
		label = f.Title
	}
	var b bytes.Buffer
	b.Grow(len(svg) + len(label) + 32)
	b.WriteString(`<svg role="img" aria-label="` + stdhtml.EscapeString(label) + `"`)
	b.Write(svg[len("<svg"):])
	return b.Bytes(), nil
}
