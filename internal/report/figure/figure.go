// Package figure draws a report's plots as SVG: for a run, the per-pair
// changes in collection order, the distributions of the cases, the
// interval of every comparison, a parameter scan, every axis's change and
// the run's own telemetry; for a recording, its span latency and its
// processes; for a series of fb-history, its values over the runs with
// its change points. It is the only user of gonum/plot. A figure reads the model,
// comes out the same for the same input and carries a text alternative
// with its key numbers.
package figure

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// Figure is one plot of a run or a recording, rendered as SVG. The HTML
// report inlines every figure of a run with its title and text
// alternative; fb-report --format svg --plot NAME writes one figure's SVG.
type Figure struct {
	// Name is the plot's name for --plot: "ratios", "distributions",
	// "forest", "scan", "axes", "telemetry", "spans" or "series".
	Name string
	// Title is the plot's title, as drawn on it.
	Title string
	// Alt is a text alternative: what the plot shows, in one or two
	// sentences with its key numbers, for a reader who cannot see it.
	Alt string
	// SVG is a complete <svg> element, deterministic for the same input.
	SVG []byte
}

// A runPlotter draws one named plot of a run, or says why the run has
// no data for it.
type runPlotter struct {
	name string
	draw func(r *model.Run) (fig *Figure, missing string, err error)
}

// runPlotters are the plots of a run, in the order figures are shown.
var runPlotters = []runPlotter{
	{"ratios", ratiosFigure},
	{"distributions", distributionsFigure},
	{"forest", forestFigure},
	{"scan", scanFigure},
	{"axes", axesFigure},
	{"telemetry", telemetryFigure},
}

// RecordingPlot is the name of a recording's plot.
const RecordingPlot = "spans"

// Names lists the plots fb-report --format svg --plot draws: a run's,
// then a recording's, then a series'.
func Names() []string { return append(RunNames(), RecordingPlot, SeriesPlot) }

// RunNames lists the plots of a run, in the order figures are shown.
func RunNames() []string {
	names := make([]string, len(runPlotters))
	for i, p := range runPlotters {
		names[i] = p.name
	}
	return names
}

// DrawRun draws the run's plot called name: a figure, or nil and why the
// run has no data for it. A name that is no run's plot draws nothing and
// says so.
func DrawRun(r *model.Run, name string) (*Figure, string, error) {
	for _, p := range runPlotters {
		if p.name == name {
			return p.draw(r)
		}
	}
	return nil, "no run has a plot called " + name, nil
}

// DrawRecording draws a recording's plot (span latency percentiles over
// time, the processes' CPU and memory), or says why it has no data for it.
func DrawRecording(rec *model.Recording) (*Figure, string, error) { return spansFigure(rec) }

// OfRun renders every plot the run has data for, in a fixed order.
// A plot without data is left out, never drawn empty.
func OfRun(r *model.Run) ([]Figure, error) {
	var figs []Figure
	for _, p := range runPlotters {
		fig, _, err := p.draw(r)
		if err != nil {
			return nil, err
		}
		if fig != nil {
			figs = append(figs, *fig)
		}
	}
	return figs, nil
}

// OfRecording renders the plots of a recording that has data for them.
func OfRecording(rec *model.Recording) ([]Figure, error) {
	fig, _, err := DrawRecording(rec)
	if err != nil || fig == nil {
		return nil, err
	}
	return []Figure{*fig}, nil
}

// sampledNote says what a figure of the samples was drawn from when the
// run kept a seeded sample of its units (model.MaxPoints): " Drawn from
// a seeded sample of 10000 of the run's pairs."; "" when it kept all.
func sampledNote(r *model.Run) string {
	if !r.Thinned {
		return ""
	}
	units := map[[3]int]bool{}
	for _, p := range r.Points {
		units[[3]int{p.Block, p.Attempt, p.Unit}] = true
	}
	noun := words.UnitNoun(r)
	return fmt.Sprintf(" Drawn from a seeded sample of %d of the run's %ss.", len(units), noun)
}
