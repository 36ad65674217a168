// Package report is fb-report: it writes an analyzed flybench stream in
// one of its formats (Formats): console cards, csv (a stable latency
// schema), long-csv (a row per axis), one json document, markdown for a
// pull request, hyperfine-json (hyperfine's --export-json schema), one
// self-contained html page with the figures, one figure as svg, gobench
// (every sample in Go's benchmark format, for benchstat) or bmf (the
// Bencher Metric Format). It
// reads what fb-analyze wrote and computes no statistics. An axis without
// a value is reported by its status and reason, never as a number. When
// fb-analyze reported the host (the claim, the quiescence gate, placement,
// the interference watch and operating conditions), every format says
// what it saw, and a run that repaired itself says so.
//
// The report is built in layers, each importing only those below it
// (layers_test.go): model (the loaded runs and recordings, units and
// statuses), words (the wording the formats share), figure (the plots,
// the only users of gonum/plot), then a package per format: console, csv
// (csv and long-csv), json, markdown, hyperfine, html (which renders the
// console's cards), svg, gobench and bmf. This package loads a stream, checks that it
// was analyzed and hands it to the format.
package report

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/report/html"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/series"
	"github.com/flybench/flybench/internal/report/svg"
)

// The model's types, named here for the callers that load and write
// streams (package model).
type (
	Run              = model.Run
	Recording        = model.Recording
	Stream           = model.Stream
	NotAnalyzedError = model.NotAnalyzedError
	// PlotError is a --plot or --run that names no single figure
	// (package svg).
	PlotError = svg.PlotError
)

// Options select the output format and what it includes.
type Options struct {
	// Format is one of Formats; "console" when empty.
	Format string
	// Color adds ANSI colours to the console format. The caller decides:
	// only on a terminal, never when NO_COLOR is set.
	Color bool
	// Details adds, for runs of three or more cases, every contender's card
	// and comparison card after the table.
	Details bool
	// Samples makes the JSON document carry every raw sample.
	Samples bool
	// Plot names the figure format "svg" writes (PlotNames).
	Plot string
	// Run is a run id prefix choosing the run (or recording) whose figure
	// "svg" writes when several have it.
	Run string
	// Names spells the options the reports name (words.Field...) as the
	// user knows them; LoadFor gives it to the runs it loads.
	Names field.Names
}

// Write formats runs to w, as WriteStream does.
func Write(w io.Writer, runs []*model.Run, opt Options) error {
	return WriteStream(w, &model.Stream{Runs: runs}, opt)
}

// WriteStream formats a stream's runs, then its recordings, to w. Output is
// rendered completely before the first byte is written, so an error leaves
// w untouched; except the formats that list every sample (gobench,
// hyperfine-json, json with samples), which write as they go once their
// checks have passed.
func WriteStream(w io.Writer, s *model.Stream, opt Options) error {
	format := formatNamed(cmp.Or(opt.Format, "console"))
	if format == nil {
		return fmt.Errorf("unknown report format %q (want %s)", opt.Format, strings.Join(Formats(), ", "))
	}
	if len(s.Series) > 0 {
		return writeSeries(w, s, format.name, opt)
	}
	var raw *model.NotAnalyzedError
	if err := checkStream(s); err != nil && !(format.raw && errors.As(err, &raw) && !raw.Cut) {
		return err
	}
	model.MarkRepeats(s.Runs)
	if format.streams != nil && format.streams(opt) {
		return format.writeTo(w, s, opt)
	}
	var buf bytes.Buffer
	if err := format.write(&buf, s, opt); err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// SeriesError is a stream of series that cannot be reported as asked:
// mixed with runs, or in a format that draws no series.
type SeriesError struct {
	// Format is the format asked for, "" for a stream that mixes series
	// with runs or recordings.
	Format string
	names  field.Names
}

// The format, plot and run as a SeriesError or PlotError names them.
const (
	FieldFormat = "report.Format"
	FieldPlot   = svg.FieldPlot
	FieldRun    = svg.FieldRun
)

func (e *SeriesError) Error() string {
	if e.Format == "" {
		return "the stream mixes series (fb-history show) with runs or recordings: report them separately"
	}
	return fmt.Sprintf("%s %s does not render series (fb-history show): use %s", e.names.Spell(FieldFormat), e.Format, strings.Join(SeriesFormats(), ", "))
}

// Named returns a copy of e that spells the format's field with names.
func (e *SeriesError) Named(names field.Names) *SeriesError {
	c := *e
	c.names = names
	return &c
}

// SeriesFormats lists the formats that render fb-history's series.
func SeriesFormats() []string { return append(series.Formats(), "html", "svg") }

// writeSeries reports fb-history's series records, alone: as text by
// package series, drawn by html and svg.
func writeSeries(w io.Writer, s *model.Stream, format string, opt Options) error {
	if len(s.Runs) > 0 || len(s.Recordings) > 0 {
		return &SeriesError{}
	}
	var buf bytes.Buffer
	var err error
	switch {
	case format == "html":
		err = html.WriteSeries(&buf, s.Series)
	case format == "svg":
		err = svg.WriteSeries(&buf, s, opt.Plot)
	case slices.Contains(series.Formats(), format):
		err = series.Write(&buf, format, s.Series)
	default:
		return &SeriesError{Format: format}
	}
	if err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
