package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/svg"
)

// TestSVGFormat: --format svg writes the one figure that --plot and
// --run name, the same bytes as the figure itself.
func TestSVGFormat(t *testing.T) {
	runs := fixtureRuns(t)
	out := render(t, runs, Options{Format: "svg", Plot: "ratios", Run: runs[0].Run.RunID[:4]})
	fig, _, err := figure.DrawRun(runs[0], "ratios")
	check(t, err)
	if !bytes.Equal(out, fig.SVG) {
		t.Errorf("svg format wrote %d bytes, not the ratios figure", len(out))
	}
	out = renderStream(t, recordingStream(t), Options{Format: "svg", Plot: "spans", Run: "rec-after"})
	if !bytes.HasPrefix(out, []byte("<svg ")) || !bytes.Contains(out, []byte("Recording rec-afte")) {
		t.Errorf("spans of rec-after: %.200s", out)
	}
	// One run with the plot needs no --run.
	out = render(t, runs[2:3], Options{Format: "svg", Plot: "distributions"})
	if !bytes.HasPrefix(out, []byte("<svg ")) {
		t.Errorf("distributions of the sequential run: %.200s", out)
	}
}

// TestSVGRefusals: a plot that is not exactly one figure is a usage
// error that says what to do, and writes nothing.
func TestSVGRefusals(t *testing.T) {
	runs := fixtureRuns(t)
	single := runs[3].Run.RunID
	tests := []struct {
		name string
		s    *model.Stream
		opt  Options
		want []string
	}{
		{"unknown plot", &model.Stream{Runs: runs}, Options{Plot: "pie"},
			[]string{`--plot "pie": use ratios, distributions, forest, scan, axes, telemetry, spans`}},
		{"ambiguous", &model.Stream{Runs: runs}, Options{Plot: "ratios"},
			[]string{"--plot ratios: 2 runs have this plot (run " + model.ShortID(runs[0].Run.RunID) + ", run " + model.ShortID(runs[1].Run.RunID) + ")", "--run ID"}},
		{"no data", &model.Stream{Runs: runs}, Options{Plot: "ratios", Run: single},
			[]string{"--plot ratios: no data for it in run " + model.ShortID(single), `design "single" has no pairs or rounds`, "(it has: distributions)"}},
		{"no such run", &model.Stream{Runs: runs}, Options{Plot: "forest", Run: "zz"},
			[]string{`--run "zz": no run id starts with it (the stream has ` + model.ShortID(runs[0].Run.RunID)}},
		{"no recording", &model.Stream{Runs: runs}, Options{Plot: "spans"},
			[]string{"--plot spans is a recording's plot and the stream has no recording"}},
		{"ambiguous recordings", recordingStream(t), Options{Plot: "spans"},
			[]string{"2 runs have this plot (recording rec-befo, recording rec-afte)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			tc.opt.Format = "svg"
			err := WriteStream(&buf, tc.s, tc.opt)
			var pe *svg.PlotError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a PlotError", err)
			}
			for _, want := range tc.want {
				if !strings.Contains(pe.Named(flags).Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
			if buf.Len() != 0 {
				t.Errorf("a refused plot wrote %d bytes", buf.Len())
			}
		})
	}
}
