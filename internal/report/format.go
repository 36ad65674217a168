package report

import (
	"bytes"
	"io"

	"github.com/flybench/flybench/internal/report/bmf"
	"github.com/flybench/flybench/internal/report/console"
	"github.com/flybench/flybench/internal/report/csv"
	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/gobench"
	"github.com/flybench/flybench/internal/report/html"
	"github.com/flybench/flybench/internal/report/hyperfine"
	"github.com/flybench/flybench/internal/report/json"
	"github.com/flybench/flybench/internal/report/markdown"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/svg"
)

// A format is one value of fb-report --format: its name and how it
// writes a stream's runs and recordings.
type format struct {
	name  string
	write func(w *bytes.Buffer, s *model.Stream, opt Options) error
	// keep is what the format needs kept of the samples (model.Keep).
	keep func(opt Options) model.Keep
	// raw says the format reads samples only, so it also takes a stream
	// fb-analyze did not analyze.
	raw bool
	// streams says the format writes straight to the output as it goes
	// (writeTo), for these options, instead of building it first (write):
	// a format that lists every sample would hold its output, as large as
	// the stream or larger, besides the samples. Only its own checks come
	// before its first byte; an error after them may leave part written.
	streams func(opt Options) bool
	writeTo func(w io.Writer, s *model.Stream, opt Options) error
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
		return json.Write(w, s, false)
	}, keep: func(opt Options) model.Keep {
		if opt.Samples {
			return model.KeepSamples
		}
		return 0
	}, streams: func(opt Options) bool { return opt.Samples }, writeTo: func(w io.Writer, s *model.Stream, _ Options) error {
		return json.Write(w, s, true)
	}},
	{name: "markdown", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error {
		markdown.Write(w, s)
		return nil
	}},
	{name: "long-csv", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error { return csv.WriteLong(w, s) }},
	{name: "hyperfine-json", streams: func(Options) bool { return true }, writeTo: func(w io.Writer, s *model.Stream, _ Options) error {
		return hyperfine.Write(w, s.Runs)
	}, keep: keeps(model.KeepTimes), raw: true},
	// html is one self-contained page with the figures inline.
	{name: "html", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error { return html.Write(w, s) },
		keep: keeps(model.KeepPoints)},
	// svg writes one figure.
	{name: "svg", write: func(w *bytes.Buffer, s *Stream, opt Options) error {
		return svg.Write(w, s, opt.Plot, opt.Run)
	}, keep: keeps(model.KeepPoints)},
	// gobench writes every sample in Go's benchmark format, for benchstat.
	{name: "gobench", streams: func(Options) bool { return true }, writeTo: func(w io.Writer, s *model.Stream, _ Options) error {
		return gobench.Write(w, s.Runs)
	}, keep: keeps(model.KeepSamples), raw: true},
	// bmf is the Bencher Metric Format: each case's measures with bounds.
	{name: "bmf", write: func(w *bytes.Buffer, s *model.Stream, _ Options) error { return bmf.Write(w, s.Runs) }},
}

// keeps is a format's keep that asks for k whatever the options.
func keeps(k model.Keep) func(Options) model.Keep { return func(Options) model.Keep { return k } }

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
