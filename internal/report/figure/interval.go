package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// interval is one row of an interval plot: an estimate x with its
// interval lo..hi at row y.
type interval struct{ x, y, lo, hi float64 }

// intervals implement plotter.XYer and plotter.XErrorer.
type intervals []interval

func (v intervals) Len() int                    { return len(v) }
func (v intervals) XY(i int) (float64, float64) { return v[i].x, v[i].y }
func (v intervals) XError(i int) (float64, float64) {
	return math.Abs(v[i].x - v[i].lo), math.Abs(v[i].hi - v[i].x)
}

// verdictLook is how a verdict is drawn: colour and glyph (shape tells
// them apart without colour), and its legend text.
type verdictLook struct {
	color color.Color
	shape draw.GlyphDrawer
	label string
}

// lookOf is the look of a timing or axis verdict.
func lookOf(verdict string) verdictLook {
	switch verdict {
	case string(ndjson.VerdictContenderFaster), model.AxisContenderBetter:
		return verdictLook{colGreen, draw.TriangleGlyph{}, verdict}
	case string(ndjson.VerdictReferenceFaster), model.AxisReferenceBetter:
		return verdictLook{colVermillion, draw.SquareGlyph{}, verdict}
	case string(ndjson.VerdictEquivalent):
		return verdictLook{colBlue, draw.CircleGlyph{}, verdict}
	case model.AxisDiagnostic:
		return verdictLook{colPurple, draw.CrossGlyph{}, "diagnostic (not judged)"}
	case "":
		return verdictLook{colBlack, draw.RingGlyph{}, "no verdict"}
	}
	return verdictLook{colBlack, draw.RingGlyph{}, verdict}
}

// addIntervals draws rows grouped by verdict (in first-seen order), each
// group an error bar and a glyph in the verdict's look, and names each
// group in the legend.
func addIntervals(p *plot.Plot, l *legend, verdicts []string, rows intervals, what string) error {
	var order []string
	groups := map[string]intervals{}
	for i, v := range verdicts {
		if _, ok := groups[v]; !ok {
			order = append(order, v)
		}
		groups[v] = append(groups[v], rows[i])
	}
	for _, v := range order {
		look := lookOf(v)
		bars, err := plotter.NewXErrorBars(groups[v])
		if err != nil {
			return fmt.Errorf("%s plot: %w", what, err)
		}
		bars.LineStyle = draw.LineStyle{Color: look.color, Width: vg.Points(1.5)}
		bars.CapWidth = vg.Points(6)
		pts, err := plotter.NewScatter(groups[v])
		if err != nil {
			return fmt.Errorf("%s plot: %w", what, err)
		}
		pts.GlyphStyle = draw.GlyphStyle{Color: look.color, Radius: vg.Points(3.5), Shape: look.shape}
		p.Add(bars, pts)
		l.add(look.label, pts)
	}
	return nil
}

// thumb draws a legend thumbnail.
type thumb func(c *draw.Canvas)

// Thumbnail implements plot.Thumbnailer.
func (f thumb) Thumbnail(c *draw.Canvas) { f(c) }

// boxThumb is a box plot's legend thumbnail: a box split by its median.
var boxThumb = thumb(func(c *draw.Canvas) {
	sty := draw.LineStyle{Color: colBlack, Width: vg.Points(1)}
	y0, y1 := c.Min.Y+vg.Points(1), c.Max.Y-vg.Points(1)
	x0, x1 := c.Min.X+vg.Points(2), c.Max.X-vg.Points(2)
	c.StrokeLines(sty, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}})
	mid := (x0 + x1) / 2
	c.StrokeLine2(draw.LineStyle{Color: colBlack, Width: vg.Points(1.5)}, mid, y0, mid, y1)
})

// zeroLine marks no change.
func zeroLine() *band {
	return &band{Vertical: true, Line: &draw.LineStyle{Color: colBlack, Width: vg.Points(0.5),
		Dashes: []vg.Length{vg.Points(2), vg.Points(2)}}}
}

// rowLabels names rows top to bottom: the first name on top.
func rowLabels(p *plot.Plot, names []string) {
	rev := make([]string, len(names))
	for i, n := range names {
		rev[len(names)-1-i] = n
	}
	p.NominalY(rev...)
	p.Y.Min, p.Y.Max = -0.6, float64(len(names))-0.4
}

// rowY is the y of row i of n, the first on top.
func rowY(i, n int) float64 { return float64(n - 1 - i) }
