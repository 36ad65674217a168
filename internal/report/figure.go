package report

import "github.com/flybench/flybench/internal/report/model"

// Figure is one plot of a run or a recording, rendered as SVG. The HTML
// report (html.go) inlines every figure of a run with its title and text
// alternative; fb-report --format svg --plot NAME writes one figure's SVG.
type Figure struct {
	// Name is the plot's name for --plot: "ratios", "distributions",
	// "forest", "scan", "axes", "telemetry" or "spans".
	Name string
	// Title is the plot's title, as drawn on it.
	Title string
	// Alt is a text alternative: what the plot shows, in one or two
	// sentences with its key numbers, for a reader who cannot see it.
	Alt string
	// SVG is a complete <svg> element, deterministic for the same input.
	SVG []byte
}

// A plotter draws one named plot of a run, or says why the run has no
// data for it.
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

// recordingPlot is the name of a recording's plot.
const recordingPlot = "spans"

// PlotNames lists the plots fb-report --format svg --plot draws: a run's,
// then a recording's.
func PlotNames() []string {
	var names []string
	for _, p := range runPlotters {
		names = append(names, p.name)
	}
	return append(names, recordingPlot)
}

// runFigures renders every plot the run has data for, in a fixed order.
// A plot without data is left out, never drawn empty.
func runFigures(r *model.Run) ([]Figure, error) {
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

// recordingFigures renders the plots of a recording (span latency
// percentiles over time, the processes' CPU and memory).
func recordingFigures(rec *model.Recording) ([]Figure, error) {
	fig, _, err := spansFigure(rec)
	if err != nil || fig == nil {
		return nil, err
	}
	return []Figure{*fig}, nil
}
