package figure

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
)

// Telemetry lines keep at most maxTelemetryPoints per case and
// maxTelemetryTotal over the cases (but minTelemetryPoints each); longer
// series keep every k-th batch.
const (
	maxTelemetryPoints = 1000
	maxTelemetryTotal  = 6000
	minTelemetryPoints = 100
)

const mib = 1 << 20

// telemetryFigure draws the run's own CPU and resident memory per batch
// over collection order, one line per case, in two stacked panels.
func telemetryFigure(r *model.Run) (*Figure, string, error) {
	n := len(r.Run.Cases)
	cpu, rss := make([]plotter.XYs, n), make([]plotter.XYs, n)
	any := false
	for _, p := range r.Points {
		if !p.Tele || p.Case < 0 || p.Case >= n {
			continue
		}
		any = true
		cpu[p.Case] = append(cpu[p.Case], plotter.XY{X: float64(p.Seq), Y: p.CPUPct})
		rss[p.Case] = append(rss[p.Case], plotter.XY{X: float64(p.Seq), Y: float64(p.RSSBytes) / mib})
	}
	if !any {
		return nil, "the samples carry no telemetry", nil
	}
	pc := newPlot("CPU of this tool and the batch's processes", "batch (collection order)", "CPU (% of one core)")
	pm := newPlot("Resident memory (this tool plus the batch's peak)", "batch (collection order)", "RSS (MiB)")
	l := newLegend()
	limit := min(maxTelemetryPoints, max(minTelemetryPoints, maxTelemetryTotal/n))
	for i := range n {
		if len(cpu[i]) == 0 {
			continue
		}
		lc, err := seriesLine(thin(cpu[i], limit), i)
		if err != nil {
			return nil, "", err
		}
		lm, err := seriesLine(thin(rss[i], limit), i)
		if err != nil {
			return nil, "", err
		}
		pc.Add(lc)
		pm.Add(lm)
		l.add(elide(r.CaseName(i), 48), lc)
	}
	pc.Y.Min = 0
	if lo, hi := pm.Y.Min, pm.Y.Max; hi-lo < 0.01*hi {
		pm.Y.Min = 0 // a flat line; otherwise memory keeps its own range, so that growth shows
	}
	title := "Telemetry: CPU and memory per batch"
	h := figureLayout(2, vg.Points(170), l)
	fig, err := svgFigure("telemetry", title, telemetryAlt(r)+sampledNote(r), figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, []*plot.Plot{pc, pm}, 1, l)
	})
	return &fig, "", err
}

// thin keeps at most limit points with a fixed stride.
func thin(xys plotter.XYs, limit int) plotter.XYs {
	stride := (len(xys) + limit - 1) / limit
	if stride <= 1 {
		return xys
	}
	var out plotter.XYs
	for i := 0; i < len(xys); i += stride {
		out = append(out, xys[i])
	}
	return out
}

// seriesLine is series i's line: its colour, dashed after eight.
func seriesLine(xys plotter.XYs, i int) (*plotter.Line, error) {
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, fmt.Errorf("line plot: %w", err)
	}
	line.LineStyle = draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1.2), Dashes: seriesDash(i)}
	return line, nil
}

// telemetryAlt gives each case's mean CPU and peak memory from the
// analysis's telemetry summaries, or their ranges for more than four.
func telemetryAlt(r *model.Run) string {
	head := "CPU and resident memory of the run per batch in collection order"
	var parts []string
	var cpuLo, cpuHi, rssHi float64
	first := true
	for i := range r.Run.Cases {
		s := r.Summary(i)
		if s == nil || s.Telemetry == nil {
			continue
		}
		t := s.Telemetry
		parts = append(parts, fmt.Sprintf("%s average CPU %.1f%%, peak RSS %s", r.CaseName(i), t.CPUPctMean, model.Memory(float64(t.RSSPeakBytes))))
		if first {
			cpuLo, cpuHi, first = t.CPUPctMean, t.CPUPctMean, false
		}
		cpuLo, cpuHi = min(cpuLo, t.CPUPctMean), max(cpuHi, t.CPUPctMean)
		rssHi = max(rssHi, float64(t.RSSPeakBytes))
	}
	switch {
	case len(parts) == 0:
		return head + "."
	case len(parts) <= 4:
		return head + ": " + strings.Join(parts, "; ") + "."
	}
	return fmt.Sprintf("%s: average CPU %.1f%% to %.1f%% by case, peak RSS %s.", head, cpuLo, cpuHi, model.Memory(rssHi))
}
