package figure

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// band shades a range of one axis across the whole plot area: a
// horizontal band from Lo to Hi on the y axis (the threshold, an
// interval), or with Vertical a span on the x axis (a watch window).
// Line, when set, also draws a line at Mid (the estimate).
type band struct {
	Lo, Hi   float64
	Vertical bool
	Fill     color.Color
	Line     *draw.LineStyle
	Mid      float64
}

// Plot implements plot.Plotter.
func (b *band) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	rect := func(lo, hi vg.Length) []vg.Point {
		if b.Vertical {
			return []vg.Point{{X: lo, Y: c.Min.Y}, {X: hi, Y: c.Min.Y}, {X: hi, Y: c.Max.Y}, {X: lo, Y: c.Max.Y}}
		}
		return []vg.Point{{X: c.Min.X, Y: lo}, {X: c.Max.X, Y: lo}, {X: c.Max.X, Y: hi}, {X: c.Min.X, Y: hi}}
	}
	tr := trY
	if b.Vertical {
		tr = trX
	}
	lo, hi := tr(b.Lo), tr(b.Hi)
	if b.Fill != nil {
		c.FillPolygon(b.Fill, c.ClipPolygonXY(rect(lo, hi)))
	}
	if b.Line != nil {
		m := tr(b.Mid)
		line := []vg.Point{{X: c.Min.X, Y: m}, {X: c.Max.X, Y: m}}
		if b.Vertical {
			line = []vg.Point{{X: m, Y: c.Min.Y}, {X: m, Y: c.Max.Y}}
		}
		c.StrokeLines(*b.Line, c.ClipLinesXY(line)...)
	}
}

// DataRange implements plot.DataRanger: a band widens only its own axis.
func (b *band) DataRange() (xmin, xmax, ymin, ymax float64) {
	if b.Vertical {
		return b.Lo, b.Hi, math.Inf(1), math.Inf(-1)
	}
	return math.Inf(1), math.Inf(-1), b.Lo, b.Hi
}

// Thumbnail implements plot.Thumbnailer for the legend.
func (b *band) Thumbnail(c *draw.Canvas) {
	if b.Fill != nil {
		pts := []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}}
		c.FillPolygon(b.Fill, pts)
	}
	if b.Line != nil {
		y := (c.Min.Y + c.Max.Y) / 2
		c.StrokeLine2(*b.Line, c.Min.X, y, c.Max.X, y)
	}
}
