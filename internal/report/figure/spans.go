package figure

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// percentileLooks are the glyphs of the span percentiles, by rank.
var percentileLooks = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{},
	draw.PyramidGlyph{}, draw.CrossGlyph{}}

// spansFigure draws a recording's span latency percentiles per benchmark
// with their intervals, the percentiles over time from the spans the
// stream holds, and the processes' CPU and memory over time.
func spansFigure(rec *model.Recording) (*Figure, string, error) {
	if len(rec.Summaries) == 0 && len(rec.Processes) == 0 {
		return nil, "the recording has no span summaries and no process records", nil
	}
	l := newLegend()
	var panels []*plot.Plot
	if len(rec.Summaries) > 0 {
		p, err := percentilePanel(rec, l)
		if err != nil {
			return nil, "", err
		}
		panels = append(panels, p)
	}
	over, err := overTimePanel(rec, l)
	if err != nil {
		return nil, "", err
	}
	if over != nil {
		panels = append(panels, over)
	}
	if len(rec.Processes) > 0 {
		cpu, mem, err := processPanels(rec, l)
		if err != nil {
			return nil, "", err
		}
		panels = append(panels, cpu, mem)
	}
	title := "Recording " + model.ShortID(rec.Record.RunID) + ": span latency and processes"
	h := figureLayout(len(panels), vg.Points(190), l)
	alt := spansAlt(rec)
	if over != nil {
		alt += " " + overTimeAlt(rec)
	}
	fig, err := svgFigure("spans", title, alt, figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, panels, 1, l)
	})
	return &fig, "", err
}

// percentilePanel draws each benchmark's wall-time percentiles with
// their intervals, one row per benchmark; percentiles without a value
// and benchmarks without wall times are written as text.
func percentilePanel(rec *model.Recording, l *legend) (*plot.Plot, error) {
	var all []float64
	for _, s := range rec.Summaries {
		for _, q := range wallPercentiles(&s) {
			all = append(all, q.Value)
		}
	}
	unit := model.TimeUnits[1]
	if len(all) > 0 {
		unit = model.UnitFor(medianOf(all))
	}
	p := newPlot("Span latency percentiles (whole recording)", "wall time per span ("+unit.Name+")", "")
	byP := map[float64]intervals{}
	var ps []float64
	var names []string
	var texts plotter.XYLabels
	n := len(rec.Summaries)
	for i, s := range rec.Summaries {
		names = append(names, s.Name)
		y := rowY(i, n)
		for _, q := range percentileList(&s) {
			if q.Status != ndjson.SpanOK || q.CI == nil {
				continue
			}
			if _, ok := byP[q.P]; !ok {
				ps = append(ps, q.P)
			}
			byP[q.P] = append(byP[q.P], interval{x: q.Value / unit.NS, y: y, lo: q.CI[0] / unit.NS, hi: q.CI[1] / unit.NS})
		}
		if text := missingText(&s); text != "" {
			texts.XYs = append(texts.XYs, plotter.XY{Y: y - 0.3})
			texts.Labels = append(texts.Labels, text)
		}
	}
	for k, q := range ps {
		if err := addPercentile(p, l, byP[q], q, k); err != nil {
			return nil, err
		}
	}
	logScale(p, all)
	if err := addMissingTexts(p, texts, all, unit); err != nil {
		return nil, err
	}
	rowLabels(p, names)
	return p, nil
}

// missingText says what a benchmark's row lacks: "no value for p99.9,
// wall time partially collected", or "" when it lacks nothing.
func missingText(s *ndjson.SpanSummary) string {
	var lacking []string
	for _, q := range percentileList(s) {
		if q.Status != ndjson.SpanOK || q.CI == nil {
			lacking = append(lacking, "p"+model.Plain(q.P))
		}
	}
	var missing []string
	if len(lacking) > 0 {
		missing = append(missing, "no value for "+strings.Join(lacking, ", "))
	}
	if s.Wall == nil {
		missing = append(missing, "wall time "+s.WallStatus)
	}
	return strings.Join(missing, ", ")
}

// addMissingTexts writes what rows lack beneath them, from the lowest
// value on the scale.
func addMissingTexts(p *plot.Plot, texts plotter.XYLabels, all []float64, unit model.TimeUnit) error {
	if len(texts.Labels) == 0 {
		return nil
	}
	lo := math.Inf(1)
	for _, v := range all {
		lo = math.Min(lo, v/unit.NS)
	}
	if math.IsInf(lo, 1) {
		lo = 1
	}
	for i := range texts.XYs {
		texts.XYs[i].X = lo
	}
	labels, err := plotter.NewLabels(texts)
	if err != nil {
		return fmt.Errorf("spans plot: %w", err)
	}
	p.Add(labels)
	return nil
}

// percentileList is a summary's wall percentiles, none without wall times.
func percentileList(s *ndjson.SpanSummary) []ndjson.SpanPercentile {
	if s.Wall == nil {
		return nil
	}
	return s.Wall.Percentiles
}

// wallPercentiles are the percentiles with a value.
func wallPercentiles(s *ndjson.SpanSummary) []ndjson.SpanPercentile {
	var out []ndjson.SpanPercentile
	for _, q := range percentileList(s) {
		if q.Status == ndjson.SpanOK && q.CI != nil {
			out = append(out, q)
		}
	}
	return out
}

// addPercentile draws one percentile of every benchmark with its
// intervals, the k-th percentile's colour and glyph.
func addPercentile(p *plot.Plot, l *legend, rows intervals, q float64, k int) error {
	bars, err := plotter.NewXErrorBars(rows)
	if err != nil {
		return fmt.Errorf("spans plot: %w", err)
	}
	col := seriesColor(k)
	bars.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.2)}
	bars.CapWidth = vg.Points(5)
	pts, err := plotter.NewScatter(rows)
	if err != nil {
		return fmt.Errorf("spans plot: %w", err)
	}
	pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: percentileLooks[k%len(percentileLooks)]}
	p.Add(bars, pts)
	l.add(fmt.Sprintf("p%s with its interval", model.Plain(q)), pts)
	return nil
}

// processPanels draw the observed program's and the recorder's CPU and
// resident memory over the recording's time.
func processPanels(rec *model.Recording, l *legend) (cpu, mem *plot.Plot, err error) {
	var progCPU, progRSS, ownCPU, ownRSS plotter.XYs
	program := false
	for _, u := range rec.Processes {
		t := float64(u.AtNS) / 1e9
		progCPU = append(progCPU, plotter.XY{X: t, Y: u.ProgramCPU})
		progRSS = append(progRSS, plotter.XY{X: t, Y: float64(u.ProgramRSS) / mib})
		ownCPU = append(ownCPU, plotter.XY{X: t, Y: u.RecorderCPU})
		ownRSS = append(ownRSS, plotter.XY{X: t, Y: float64(u.RecorderRSS) / mib})
		program = program || u.ProgramRSS > 0 || u.ProgramCPU > 0
	}
	cpu = newPlot("Processes' CPU", "time since the recording started (s)", "CPU (% of one core)")
	mem = newPlot("Processes' resident memory", "time since the recording started (s)", "RSS (MiB)")
	series := []struct {
		name     string
		cpu, rss plotter.XYs
	}{{"observed program", progCPU, progRSS}, {"recorder", ownCPU, ownRSS}}
	for i, s := range series {
		if i == 0 && !program {
			continue
		}
		lc, pc, err := processLine(s.cpu, i)
		if err != nil {
			return nil, nil, err
		}
		lm, pm, err := processLine(s.rss, i)
		if err != nil {
			return nil, nil, err
		}
		cpu.Add(lc, pc)
		mem.Add(lm, pm)
		l.add(s.name, lc, pc)
	}
	cpu.Y.Min, mem.Y.Min = 0, 0
	return cpu, mem, nil
}

// processLine is a line with a point at each record, so that a single
// record still shows.
func processLine(xys plotter.XYs, i int) (*plotter.Line, *plotter.Scatter, error) {
	line, pts, err := plotter.NewLinePoints(thin(xys, maxTelemetryPoints))
	if err != nil {
		return nil, nil, fmt.Errorf("spans plot: %w", err)
	}
	col := []color.Color{colVermillion, colBlue}[i]
	line.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1.2), Dashes: seriesDash(8 * i)}
	pts.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
	return line, pts, nil
}

// spansAlt names each benchmark's p50 and p99 (or what it has), and the
// processes' peak CPU and memory.
func spansAlt(rec *model.Recording) string {
	var parts []string
	for i := range rec.Summaries {
		s := &rec.Summaries[i]
		var qs []string
		for _, q := range wallPercentiles(s) {
			if q.P == 50 || q.P == 99 {
				qs = append(qs, fmt.Sprintf("p%s %s", model.Plain(q.P), model.Dur(q.Value)))
			}
		}
		if len(qs) == 0 {
			qs = append(qs, "no percentile with a value")
		}
		parts = append(parts, s.Name+" "+strings.Join(qs, ", "))
	}
	const most = 6
	more := ""
	if len(parts) > most {
		parts, more = parts[:most], fmt.Sprintf(" and %d more", len(parts)-most)
	}
	alt := fmt.Sprintf("Span latency percentiles of recording %s over the whole recording", model.ShortID(rec.Record.RunID))
	if len(parts) > 0 {
		alt += ": " + strings.Join(parts, "; ") + more
	}
	alt += "."
	if len(rec.Processes) > 0 {
		var cpu, rss, ownCPU, ownRSS float64
		for _, u := range rec.Processes {
			cpu, rss = max(cpu, u.ProgramCPU), max(rss, float64(u.ProgramRSS))
			ownCPU, ownRSS = max(ownCPU, u.RecorderCPU), max(ownRSS, float64(u.RecorderRSS))
		}
		program := ""
		if cpu > 0 || rss > 0 {
			program = fmt.Sprintf("program peak CPU %.1f%%, RSS %s; ", cpu, model.Memory(rss))
		}
		alt += fmt.Sprintf(" Processes over %d records: %srecorder peak CPU %.1f%%, RSS %s.",
			len(rec.Processes), program, ownCPU, model.Memory(ownRSS))
	}
	return alt
}

// Latency over time: the spans are cut into at most overTimeBuckets
// equal stretches of the recording, and each benchmark's p50, p90 and
// p99 of a stretch are drawn when it holds at least 2, 10 and 100 spans;
// at most overTimeBenchmarks benchmarks, the first ones.
const (
	overTimeBuckets    = 40
	overTimeBenchmarks = 4
)

// overTimeQuantiles are the percentiles drawn over time and the fewest
// spans a stretch needs for each.
var overTimeQuantiles = []struct {
	p   float64
	min int
}{{50, 2}, {90, 10}, {99, 100}}

// overTimePanel draws the wall-time percentiles of each stretch of the
// recording, nil when the stream holds too few spans with a wall time.
func overTimePanel(rec *model.Recording, l *legend) (*plot.Plot, error) {
	byBench := map[int][]model.SpanTime{}
	var first, last int64 = math.MaxInt64, math.MinInt64
	for _, s := range rec.SpanTimes {
		if s.B < overTimeBenchmarks {
			byBench[s.B] = append(byBench[s.B], s)
			first, last = min(first, s.StartNS), max(last, s.StartNS)
		}
	}
	if len(byBench) == 0 || last <= first {
		return nil, nil
	}
	buckets := min(overTimeBuckets, max(2, len(rec.SpanTimes)/50))
	width := float64(last-first+1) / float64(buckets)
	var all []float64
	for _, s := range rec.SpanTimes {
		all = append(all, float64(s.WallNS))
	}
	unit := model.UnitFor(medianOf(all))
	p := newPlot("Span wall time over the recording", "time since the recording started (s)", "wall time ("+unit.Name+")")
	drawn := false
	for b := range overTimeBenchmarks {
		spans := byBench[b]
		if len(spans) == 0 {
			continue
		}
		cut := make([][]float64, buckets)
		for _, s := range spans {
			k := min(buckets-1, int(float64(s.StartNS-first)/width))
			cut[k] = append(cut[k], float64(s.WallNS)/unit.NS)
		}
		for qi, q := range overTimeQuantiles {
			xys := stretchQuantile(cut, q.p, q.min, first, width)
			if len(xys) == 0 {
				continue
			}
			name := fmt.Sprintf("%s p%s per stretch", elide(benchmarkName(rec, b), 32), model.Plain(q.p))
			if err := addStretchLine(p, l, xys, b, qi, name); err != nil {
				return nil, err
			}
			drawn = true
		}
	}
	if !drawn {
		return nil, nil
	}
	p.Y.Min = 0
	return p, nil
}

// stretchQuantile is the p-th percentile of each stretch of the
// recording that holds at least fewest spans, at the stretch's middle in
// seconds. It sorts the stretches in place.
func stretchQuantile(cut [][]float64, p float64, fewest int, first int64, width float64) plotter.XYs {
	var xys plotter.XYs
	for k, vs := range cut {
		if len(vs) < fewest {
			continue
		}
		slices.Sort(vs)
		x := (float64(first) + (float64(k)+0.5)*width) / 1e9
		xys = append(xys, plotter.XY{X: x, Y: vs[int(math.Ceil(p/100*float64(len(vs))))-1]})
	}
	return xys
}

// addStretchLine draws benchmark b's qi-th percentile over the stretches:
// the benchmark's colour, the percentile's dash and glyph.
func addStretchLine(p *plot.Plot, l *legend, xys plotter.XYs, b, qi int, name string) error {
	line, pts, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("spans plot: %w", err)
	}
	line.LineStyle = draw.LineStyle{Color: seriesColor(b), Width: vg.Points(1.2),
		Dashes: [][]vg.Length{nil, {vg.Points(4), vg.Points(2)}, {vg.Points(1), vg.Points(2)}}[qi]}
	pts.GlyphStyle = draw.GlyphStyle{Color: seriesColor(b), Radius: vg.Points(1.6), Shape: percentileLooks[qi]}
	p.Add(line, pts)
	l.add(name, line, pts)
	return nil
}

// benchmarkName is benchmark b's name in the recording record.
func benchmarkName(rec *model.Recording, b int) string {
	for _, x := range rec.Record.Benchmarks {
		if x.Index == b && x.Name != "" {
			return x.Name
		}
	}
	return fmt.Sprintf("benchmark %d", b)
}

// overTimeAlt says what the latency-over-time panel is drawn from.
func overTimeAlt(rec *model.Recording) string {
	return fmt.Sprintf("Wall-time p50, p90 and p99 of each stretch of the recording (up to %d stretches; a percentile "+
		"only from a stretch with at least 2, 10 and 100 spans) from the %d spans with a wall time the stream holds.",
		overTimeBuckets, len(rec.SpanTimes))
}
