// Package svg is fb-report's svg format: the one figure of a stream that
// a plot name and a run id prefix choose, as the figure package draws it,
// or the plot of a stream's one series.
package svg

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/model"
)

// PlotError is a --plot or --run that names no single figure: an
// unknown plot, a run id prefix that matches nothing, a plot several
// runs have, or one no run has data for. fb-report exits 2 on it.
type PlotError struct{ err *field.Error }

func (e *PlotError) Error() string { return e.err.Error() }

// Named returns a copy of e whose message spells the plot and run fields
// with names.
func (e *PlotError) Named(names field.Names) *PlotError { return &PlotError{e.err.Named(names)} }

// The plot and the run as a PlotError names them.
const (
	FieldPlot = "report.Plot"
	FieldRun  = "report.Run"
)

var plotField, runField = field.Name(FieldPlot), field.Name(FieldRun)

func plotErrorf(path string, value any, format string, args ...any) error {
	return &PlotError{field.Errorf(path, value, format, args...)}
}

// candidate is a run or recording that may have the plot.
type candidate struct {
	id   string
	draw func() (*figure.Figure, string, error)
	// has lists the plots it does have, for the message when it lacks one.
	has func() []string
}

// Write writes the one figure of the stream that plot and run (a run
// id prefix) name: fb-report --format svg --plot PLOT --run RUN.
func Write(w *bytes.Buffer, s *model.Stream, plot, run string) error {
	if !slices.Contains(figure.Names(), plot) {
		return plotErrorf(FieldPlot, plot, "%s %q: use %s", plotField, plot, strings.Join(figure.Names(), ", "))
	}
	if plot == figure.SeriesPlot {
		return plotErrorf(FieldPlot, plot, "%s %s draws fb-history's series and the stream has none; a run's plots are %s",
			plotField, plot, strings.Join(figure.RunNames(), ", "))
	}
	cands, err := candidates(s, plot, run)
	if err != nil {
		return err
	}
	var figs []*figure.Figure
	var ids, missing []string
	for _, c := range cands {
		fig, why, err := c.draw()
		if err != nil {
			return err
		}
		if fig == nil {
			missing = append(missing, fmt.Sprintf("%s: %s (it has: %s)", c.id, why, orNone(c.has())))
			continue
		}
		figs = append(figs, fig)
		ids = append(ids, c.id)
	}
	switch {
	case len(figs) > 1:
		return plotErrorf(FieldPlot, plot, "%s %s: %d runs have this plot (%s): choose one with %s ID", plotField, plot, len(figs), strings.Join(ids, ", "), runField)
	case len(figs) == 0 && len(missing) == 0:
		return plotErrorf(FieldPlot, plot, "%s %s is a recording's plot and the stream has no recording; a run's plots are %s",
			plotField, plot, strings.Join(figure.RunNames(), ", "))
	case len(figs) == 0:
		return plotErrorf(FieldPlot, plot, "%s %s: no data for it in %s", plotField, plot, strings.Join(missing, "; "))
	}
	w.Write(figs[0].SVG)
	return nil
}

// candidates are the runs or the recordings (as the plot is one's or the
// other's) whose id starts with --run.
func candidates(s *model.Stream, plot, run string) ([]candidate, error) {
	var all []candidate
	var ids []string
	for _, r := range s.Runs {
		ids = append(ids, model.ShortID(r.Run.RunID)+r.RepeatNote())
		if !strings.HasPrefix(r.Run.RunID, run) || plot == figure.RecordingPlot {
			continue
		}
		all = append(all, runCandidate(r, plot))
	}
	for _, rec := range s.Recordings {
		ids = append(ids, model.ShortID(rec.Record.RunID))
		if !strings.HasPrefix(rec.Record.RunID, run) || plot != figure.RecordingPlot {
			continue
		}
		all = append(all, candidate{id: "recording " + model.ShortID(rec.Record.RunID),
			draw: func() (*figure.Figure, string, error) { return figure.DrawRecording(rec) },
			has:  func() []string { return nil }})
	}
	if run != "" && !matchesAny(s, run) {
		return nil, plotErrorf(FieldRun, run, "%s %q: no run id starts with it (the stream has %s)", runField, run, strings.Join(ids, ", "))
	}
	return all, nil
}

// runCandidate is a run as a candidate for the named plot.
func runCandidate(r *model.Run, plot string) candidate {
	return candidate{id: "run " + model.ShortID(r.Run.RunID) + r.RepeatNote(),
		draw: func() (*figure.Figure, string, error) { return figure.DrawRun(r, plot) },
		has: func() []string {
			figs, _ := figure.OfRun(r)
			var names []string
			for _, f := range figs {
				names = append(names, f.Name)
			}
			return names
		}}
}

// matchesAny reports whether a run or recording id starts with prefix.
func matchesAny(s *model.Stream, prefix string) bool {
	for _, r := range s.Runs {
		if strings.HasPrefix(r.Run.RunID, prefix) {
			return true
		}
	}
	for _, rec := range s.Recordings {
		if strings.HasPrefix(rec.Record.RunID, prefix) {
			return true
		}
	}
	return false
}

// orNone is the names joined, or "none".
func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// WriteSeries writes the plot of the stream's one series (fb-history
// show): fb-report --format svg --plot series. A stream of several series
// is refused: fb-history show --case and --class write one.
func WriteSeries(w *bytes.Buffer, s *model.Stream, plot string) error {
	if plot != figure.SeriesPlot {
		return plotErrorf(FieldPlot, plot, "%s %q: a stream of series (fb-history show) has one plot: %s", plotField, plot, figure.SeriesPlot)
	}
	if n := len(s.Series); n != 1 {
		var names []string
		for _, sr := range s.Series {
			names = append(names, strings.TrimSpace(sr.Case+" "+sr.Class))
		}
		return plotErrorf(FieldPlot, plot, "%s %s draws one series and the stream has %d (%s): write one with fb-history show --case NAME --class CLASS",
			plotField, plot, n, strings.Join(names, "; "))
	}
	fig, err := figure.DrawSeries(&s.Series[0])
	if err != nil {
		return err
	}
	w.Write(fig.SVG)
	return nil
}
