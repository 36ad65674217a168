// Package report formats an analyzed flybench stream: result cards for the
// console, a stable CSV latency schema, a long CSV with a row per axis, one
// JSON document, and Markdown for a pull request. It reads what fb-analyze
// wrote and computes no statistics. An axis without a value is reported by
// its status and reason, never as a number. When fb-analyze reported the
// host (the claim, the quiescence gate, placement, the interference watch
// and operating conditions), every format says what it saw, and a run that
// repaired itself says so.
package report

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flybench/flybench/internal/report/console"
	"github.com/flybench/flybench/internal/report/csv"
	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/html"
	"github.com/flybench/flybench/internal/report/hyperfine"
	"github.com/flybench/flybench/internal/report/json"
	"github.com/flybench/flybench/internal/report/markdown"
	"github.com/flybench/flybench/internal/report/model"
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
	// Format is "console" (the default when empty), "csv", "json",
	// "markdown", "long-csv" (one row per axis, wall time included),
	// "hyperfine-json" (hyperfine's --export-json schema, hyperfine.go),
	// "html" (one self-contained page with the figures, html.go) or "svg"
	// (one figure, Plot; figure.go).
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
}

// A format is one value of fb-report --format: its name and how it
// writes a stream's runs and recordings.
type format struct {
	name  string
	write func(w *bytes.Buffer, s *model.Stream, opt Options) error
	// raw says the format reads samples only, so it also takes a stream
	// fb-analyze did not analyze.
	raw bool
}

// formats are the formats Write accepts, in the order messages list
// them: the newer last, so those messages keep their older prefix.
var formats = []format{
	{name: "console", write: func(w *bytes.Buffer, s *model.Stream, opt Options) error {
		console.Write(w, s, opt.Color, opt.Details)
		return nil
	}},
	{name: "csv", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error { return csv.Write(w, s) }},
	// json holds runs and recordings in one document.
	{name: "json", write: func(w *bytes.Buffer, s *model.Stream, opt Options) error {
		return json.Write(w, s, opt.Samples)
	}},
	{name: "markdown", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error {
		markdown.Write(w, s)
		return nil
	}},
	{name: "long-csv", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error { return csv.WriteLong(w, s) }},
	{name: "hyperfine-json", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error {
		return hyperfine.Write(w, s.Runs)
	}, raw: true},
	// html is one self-contained page with the figures inline.
	{name: "html", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error { return html.Write(w, s) }},
	// svg writes one figure.
	{name: "svg", write: func(w *bytes.Buffer, s *Stream, opt Options) error {
		return svg.Write(w, s, opt.Plot, opt.Run)
	}},
}

// Formats lists the format names Write accepts.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// PlotNames lists the plots --format svg --plot draws: a run's, then a
// recording's.
func PlotNames() []string { return figure.Names() }

// formatNamed is the format called name, nil for none.
func formatNamed(name string) *format {
	for i := range formats {
		if formats[i].name == name {
			return &formats[i]
		}
	}
	return nil
}

// Write formats runs to w. Output is rendered completely before the first
// byte is written, so an error leaves w untouched.
func Write(w io.Writer, runs []*model.Run, opt Options) error {
	return WriteStream(w, &model.Stream{Runs: runs}, opt)
}

// WriteStream formats a stream's runs, then its recordings
// (recording_*.go), to w. Output is rendered completely before the first
// byte is written, so an error leaves w untouched.
func WriteStream(w io.Writer, s *model.Stream, opt Options) error {
	name := opt.Format
	if name == "" {
		name = "console"
	}
	format := formatNamed(name)
	if format == nil {
		return fmt.Errorf("unknown report format %q (want %s)", opt.Format, strings.Join(Formats(), ", "))
	}
	var raw *model.NotAnalyzedError
	if err := checkStream(s); err != nil && !(format.raw && errors.As(err, &raw)) {
		return err
	}
	model.MarkRepeats(s.Runs)
	var buf bytes.Buffer
	if err := format.write(&buf, s, opt); err != nil {
		return err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// checkStream refuses an empty stream and an unanalyzed run or recording.
func checkStream(s *model.Stream) error {
	if len(s.Runs) > 0 || len(s.Recordings) == 0 {
		if err := checkAnalyzed(s.Runs); err != nil {
			return err
		}
	}
	return checkRecordings(s.Recordings)
}

// checkAnalyzed refuses an empty stream and a raw one: a report is made of
// fb-analyze's records, never of statistics computed here.
func checkAnalyzed(runs []*model.Run) error {
	if len(runs) == 0 {
		return &model.NotAnalyzedError{Msg: "the stream holds no run records, nothing to report"}
	}
	for _, r := range runs {
		if r.Analysis == nil && len(r.StreamWarnings) > 0 {
			return fmt.Errorf("run %s has no analysis record: the %s", model.ShortID(r.Run.RunID), r.StreamWarnings[0])
		}
		if r.Analysis == nil {
			return &model.NotAnalyzedError{Msg: fmt.Sprintf("run %s was not analyzed: pipe the stream through fb-analyze first "+
				"(fb-pair ... | fb-analyze | fb-report)", model.ShortID(r.Run.RunID))}
		}
	}
	return nil
}

// checkRecordings refuses a recording fb-analyze did not summarize.
func checkRecordings(recs []*model.Recording) error {
	for _, r := range recs {
		switch {
		case len(r.Summaries) > 0:
		case len(r.StreamWarnings) > 0:
			return fmt.Errorf("recording %s has no span_summary records: the %s", model.ShortID(r.Record.RunID), r.StreamWarnings[0])
		default:
			return &model.NotAnalyzedError{Msg: fmt.Sprintf("recording %s was not analyzed: pipe the stream through fb-analyze first "+
				"(fb-record ... | fb-analyze | fb-report)", model.ShortID(r.Record.RunID))}
		}
	}
	return nil
}
