package figure

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// SeriesPlot is the name of a series' plot (fb-history show).
const SeriesPlot = "series"

// maxChangeTexts is the most change points a series plot labels on the
// plot and names in its text alternative; the rest are marked only.
const maxChangeTexts = 8

// seriesScale is how a series' values are drawn: divided by div, with
// the y axis' label.
type seriesScale struct {
	div   float64
	label string
}

// scaleOf is the y scale of a series: time metrics in the unit their
// median calls for, a score or a chain's product of ratios as they are.
func scaleOf(s *ndjson.Series) seriesScale {
	switch s.Metric {
	case "score":
		return seriesScale{1, "normalized score (reference workload time / case time)"}
	case "time_ratio":
		return seriesScale{1, "time ratio product, contender/reference"}
	}
	vals := make([]float64, len(s.Points))
	for i, p := range s.Points {
		vals[i] = p.Value
	}
	u := model.UnitFor(medianOf(vals))
	return seriesScale{u.NS, fmt.Sprintf("%s time per operation (%s)", strings.TrimSuffix(s.Metric, "_ns"), u.Name)}
}

// DrawSeries draws a series record: each run's value in run order (with
// its interval where the record has one), the level of each segment
// between change points, and each change point marked between the runs
// either side with its change and interval. The x axis is the run order,
// labelled with the runs' revisions where they have them.
func DrawSeries(s *ndjson.Series) (*Figure, error) {
	if len(s.Points) == 0 {
		return nil, fmt.Errorf("series plot of %q: no points", s.Case)
	}
	sc := scaleOf(s)
	p := newPlot("", seriesXLabel(s), sc.label)
	p.X.Tick.Marker = revisionTicks{s.Points}
	l := newLegend()
	if err := addSeriesPoints(p, l, s, sc); err != nil {
		return nil, err
	}
	if s.Series == ndjson.SeriesChain {
		one := &band{Lo: 1, Hi: 1, Line: &draw.LineStyle{Color: colBlack, Width: vg.Points(0.5), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}, Mid: 1}
		p.Add(one)
		l.add("no change (ratio 1)", one)
	}
	lo, hi := seriesRange(s, sc)
	if len(s.Changes) > 0 {
		// Room above the data for the change points' labels.
		hi += 0.15 * max(hi-lo, 1e-9*hi)
	}
	if err := addChangeMarks(p, l, s, sc, hi); err != nil {
		return nil, err
	}
	if err := addDrifts(p, l, s, sc); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max = 0.5, float64(len(s.Points))+0.5
	p.Y.Min, p.Y.Max = min(p.Y.Min, lo), max(p.Y.Max, hi)
	title := seriesTitle(s)
	h := figureLayout(1, vg.Points(280), l)
	fig, err := svgFigure(SeriesPlot, title, seriesAlt(s), figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, []*plot.Plot{p}, 1, l)
	})
	return &fig, err
}

// seriesTitle names the case (or the chain) and the metric.
func seriesTitle(s *ndjson.Series) string {
	if s.Series == ndjson.SeriesChain {
		return fmt.Sprintf("Chained paired changes of %s against %s", elide(s.Case, 36), elide(s.Reference, 36))
	}
	return fmt.Sprintf("%s of %s per run", upperFirst(strings.TrimSuffix(s.Metric, "_ns")), elide(s.Case, 48))
}

// seriesXLabel says what the x axis counts.
func seriesXLabel(s *ndjson.Series) string {
	for _, p := range s.Points {
		if p.Revision != "" {
			return "run, oldest first (labelled with its revision)"
		}
	}
	return "run, oldest first"
}

// addSeriesPoints draws the values joined in run order, and each run's
// interval where the record gives one.
func addSeriesPoints(p *plot.Plot, l *legend, s *ndjson.Series, sc seriesScale) error {
	var xy plotter.XYs
	var bars errorPoints
	for i, pt := range s.Points {
		x, y := float64(i+1), pt.Value/sc.div
		xy = append(xy, plotter.XY{X: x, Y: y})
		if pt.CI != nil {
			bars = append(bars, errorPoint{x: x, y: y, lo: pt.CI[0] / sc.div, hi: pt.CI[1] / sc.div})
		}
	}
	line, points, err := plotter.NewLinePoints(xy)
	if err != nil {
		return fmt.Errorf("series plot: %w", err)
	}
	line.LineStyle = draw.LineStyle{Color: tint(colBlue, 0x99), Width: vg.Points(0.8)}
	points.GlyphStyle = draw.GlyphStyle{Color: colBlue, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
	p.Add(line, points)
	name := strings.TrimSuffix(s.Metric, "_ns") + " of each run"
	if s.Series == ndjson.SeriesChain {
		name = "product of the paired ratios up to each run"
	}
	l.add(name, line, points)
	if len(bars) > 0 {
		eb, err := plotter.NewYErrorBars(bars)
		if err != nil {
			return fmt.Errorf("series plot: %w", err)
		}
		eb.LineStyle = draw.LineStyle{Color: colBlue, Width: vg.Points(0.8)}
		eb.CapWidth = vg.Points(3)
		p.Add(eb)
		what := "its interval (fb-analyze's)"
		if s.Series == ndjson.SeriesChain {
			what = "its interval (fb-history(1), CHAINED CHANGES)"
		}
		l.add(what, barThumb(eb.LineStyle))
	}
	return nil
}

// barThumb is a vertical error bar's legend thumbnail.
func barThumb(sty draw.LineStyle) thumb {
	return thumb(func(c *draw.Canvas) {
		x := (c.Min.X + c.Max.X) / 2
		y0, y1 := c.Min.Y+vg.Points(1), c.Max.Y-vg.Points(1)
		c.StrokeLine2(sty, x, y0, x, y1)
		c.StrokeLine2(sty, x-vg.Points(2), y0, x+vg.Points(2), y0)
		c.StrokeLine2(sty, x-vg.Points(2), y1, x+vg.Points(2), y1)
	})
}

// errorPoint is a value with its interval, for vertical error bars.
type errorPoint struct{ x, y, lo, hi float64 }

type errorPoints []errorPoint

func (v errorPoints) Len() int                    { return len(v) }
func (v errorPoints) XY(i int) (float64, float64) { return v[i].x, v[i].y }
func (v errorPoints) YError(i int) (float64, float64) {
	return math.Abs(v[i].y - v[i].lo), math.Abs(v[i].hi - v[i].y)
}

// addChangeMarks draws each segment's level (the median the record gives
// either side of its change points) and a line between the runs either
// side of each change point, labelled with its change and interval.
func addChangeMarks(p *plot.Plot, l *legend, s *ndjson.Series, sc seriesScale, top float64) error {
	if len(s.Changes) == 0 {
		return nil
	}
	levels := plotter.XYs{}
	start := 0.5
	for i, c := range s.Changes {
		at := float64(c.Index) + 0.5
		levels = append(levels, plotter.XY{X: start, Y: c.Before / sc.div}, plotter.XY{X: at, Y: c.Before / sc.div})
		if i == len(s.Changes)-1 {
			levels = append(levels, plotter.XY{X: at, Y: c.After / sc.div}, plotter.XY{X: float64(len(s.Points)) + 0.5, Y: c.After / sc.div})
		}
		start = at
	}
	for i, piece := range outsideDrifts(levels, s.Drifts) {
		steps, err := plotter.NewLine(piece)
		if err != nil {
			return fmt.Errorf("series plot: %w", err)
		}
		steps.LineStyle = draw.LineStyle{Color: colOrange, Width: vg.Points(2)}
		p.Add(steps)
		if i == 0 {
			l.add("level between change points (median)", steps)
		}
	}
	mark := draw.LineStyle{Color: colVermillion, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}
	var first *band
	var texts plotter.XYLabels
	for i, c := range s.Changes {
		b := &band{Lo: float64(c.Index) + 0.5, Hi: float64(c.Index) + 0.5, Vertical: true, Line: &mark, Mid: float64(c.Index) + 0.5}
		p.Add(b)
		if first == nil {
			first = b
		}
		if i < maxChangeTexts {
			texts.XYs = append(texts.XYs, plotter.XY{X: float64(c.Index) + 0.6, Y: top})
			texts.Labels = append(texts.Labels, changeText(s, c))
		}
	}
	labels, err := plotter.NewLabels(texts)
	if err != nil {
		return fmt.Errorf("series plot: %w", err)
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i] = text.Style{Color: colVermillion, Font: labels.TextStyle[i].Font,
			YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
		labels.TextStyle[i].Font.Size = vg.Points(8)
	}
	p.Add(unpadded{labels})
	l.add(fmt.Sprintf("change point: change and %s%% interval", confidence(s)), first)
	return nil
}

// outsideDrifts is the level line without the stretches drifts cover
// (a drift draws its own line there): the line itself when there are
// none, else its pieces in order.
func outsideDrifts(levels plotter.XYs, drifts []ndjson.SeriesDrift) []plotter.XYs {
	if len(drifts) == 0 {
		return []plotter.XYs{levels}
	}
	inside := func(x float64) bool {
		for _, d := range drifts {
			if x > float64(d.From)+0.5 && x < float64(d.To)+1.5 {
				return true
			}
		}
		return false
	}
	var pieces []plotter.XYs
	var cur plotter.XYs
	cut := func() {
		if len(cur) > 1 {
			pieces = append(pieces, cur)
		}
		cur = nil
	}
	// Walk the line in half-run steps: its levels and jumps and every
	// drift's edges lie on half-run boundaries.
	for i := 0; i+1 < len(levels); i++ {
		a, b := levels[i], levels[i+1]
		if a.X == b.X { // a jump at a change point
			if inside(a.X) {
				cut()
			} else {
				cur = append(cur, a, b)
			}
			continue
		}
		for x := a.X; x < b.X+1e-9; x += 0.5 {
			if inside(x) {
				cut()
				continue
			}
			cur = append(cur, plotter.XY{X: x, Y: a.Y})
		}
	}
	cut()
	return pieces
}

// addDrifts draws each drift's fitted line from its first run to its
// last, labelled with its change.
func addDrifts(p *plot.Plot, l *legend, s *ndjson.Series, sc seriesScale) error {
	for i, d := range s.Drifts {
		line, err := plotter.NewLine(plotter.XYs{{X: float64(d.From) + 1, Y: d.Start / sc.div}, {X: float64(d.To) + 1, Y: d.End / sc.div}})
		if err != nil {
			return fmt.Errorf("series plot: %w", err)
		}
		line.LineStyle = draw.LineStyle{Color: colOrange, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(6), vg.Points(3)}}
		p.Add(line)
		if i == 0 {
			l.add("drift: least-squares line over its runs", line)
		}
	}
	return nil
}

// seriesRange is the lowest and highest value or interval end drawn.
func seriesRange(s *ndjson.Series, sc seriesScale) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range s.Points {
		lo, hi = math.Min(lo, p.Value/sc.div), math.Max(hi, p.Value/sc.div)
		if p.CI != nil {
			lo, hi = math.Min(lo, p.CI[0]/sc.div), math.Max(hi, p.CI[1]/sc.div)
		}
	}
	return lo, hi
}

// confidence is the confidence of the change points' intervals.
func confidence(s *ndjson.Series) string {
	c := 95.0
	if s.Detection != nil {
		c = cmp.Or(s.Detection.ConfidencePct, 95)
	}
	return model.Plain(c)
}

// changeText is a change point's label: "+8.3% (+6.1% .. +10.5%)".
func changeText(s *ndjson.Series, c ndjson.SeriesChange) string {
	t := model.Pct(c.ChangePct)
	if c.ChangeCI != nil {
		t += " (" + model.PctRange(*c.ChangeCI) + ")"
	}
	return t
}

// revisionTicks labels the run axis' ticks with the runs' revisions
// where they have them, else with their run number (1 is the oldest).
type revisionTicks struct{ points []ndjson.SeriesPoint }

// Ticks implements plot.Ticker: at most 8 labelled runs, 1 and every
// step-th (a step of 1, 2 or 5 times a power of ten), an unlabelled tick
// at every run when there are at most 60.
func (r revisionTicks) Ticks(lo, hi float64) []plot.Tick {
	n := len(r.points)
	step := 1
	for k := 0; n/step > 8; k++ {
		step = []int{1, 2, 5}[k%3] * int(math.Pow10(k/3))
	}
	var out []plot.Tick
	for i := 1; i <= n; i++ {
		if i != 1 && i%step != 0 {
			if n <= 60 {
				out = append(out, plot.Tick{Value: float64(i)})
			}
			continue
		}
		label := strconv.Itoa(i)
		if rev := r.points[i-1].Revision; rev != "" {
			label = elide(rev, 12)
		}
		out = append(out, plot.Tick{Value: float64(i), Label: label})
	}
	return out
}

// seriesAlt says what the series shows in words: its runs, first and
// last values, and each change point with its runs and interval.
func seriesAlt(s *ndjson.Series) string {
	first, last := s.Points[0], s.Points[len(s.Points)-1]
	what := fmt.Sprintf("%s of %s per run", strings.TrimSuffix(s.Metric, "_ns"), s.Case)
	if s.Series == ndjson.SeriesChain {
		what = fmt.Sprintf("chained paired changes of %s against %s (the product of the paired time ratios)", s.Case, s.Reference)
	}
	head := fmt.Sprintf("Series of the %s over %s (of %d stored), oldest first: first %s, last %s",
		what, model.Plural(len(s.Points), "run"), s.Total, altValue(s, first.Value), altValue(s, last.Value))
	switch {
	case s.Detection == nil:
		return head + "; change points not looked for."
	case len(s.Changes) == 0 && len(s.Drifts) == 0:
		return head + "; no change point."
	}
	var drifts []string
	for _, d := range s.Drifts {
		drifts = append(drifts, fmt.Sprintf("a drift of %s from run %d%s to run %d%s (%s → %s on the fitted line)", model.Pct(d.ChangePct),
			d.From+1, altRevision(d.FromRevision), d.To+1, altRevision(d.ToRevision), altValue(s, d.Start), altValue(s, d.End)))
	}
	if len(s.Changes) == 0 {
		return fmt.Sprintf("%s; %s.", head, strings.Join(drifts, "; "))
	}
	if len(drifts) > 0 {
		head += "; " + strings.Join(drifts, "; ")
	}
	var parts []string
	for i, c := range s.Changes {
		if i == maxChangeTexts {
			parts = append(parts, fmt.Sprintf("and %d more", len(s.Changes)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("from run %d%s on %s (%s → %s)", c.Index+1, altRevision(c.AfterRevision),
			changeText(s, c), altValue(s, c.Before), altValue(s, c.After)))
	}
	return fmt.Sprintf("%s; %s (%s%% intervals): %s.", head, model.Plural(len(s.Changes), "change point"), confidence(s), strings.Join(parts, "; "))
}

func altValue(s *ndjson.Series, v float64) string {
	if s.Metric == "score" || s.Metric == "time_ratio" {
		return model.Sig4(v)
	}
	return model.Dur(v)
}

func altRevision(r string) string {
	if r == "" {
		return ""
	}
	return " (revision " + r + ")"
}

// upperFirst capitalizes an ASCII word.
func upperFirst(w string) string {
	if w == "" {
		return w
	}
	return strings.ToUpper(w[:1]) + w[1:]
}
