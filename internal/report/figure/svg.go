package figure

import (
	"bytes"
	"fmt"
	"html"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The plots use the Liberation Sans metrics gonum/plot embeds for layout;
// the SVG names the family with common fallbacks and embeds no font, so a
// figure has no external reference and no @font-face.
func init() {
	sans := font.Font{Typeface: "Liberation", Variant: "Sans"}
	plot.DefaultFont = sans
	plotter.DefaultFont = sans
}

// okabeIto is the Okabe–Ito colour-blind-safe palette, black last.
var okabeIto = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// Named colours of the palette.
var (
	colBlue       = okabeIto[0]
	colOrange     = okabeIto[1]
	colGreen      = okabeIto[2]
	colVermillion = okabeIto[3]
	colPurple     = okabeIto[5]
	colBlack      = okabeIto[7]
	colGrey       = color.NRGBA{0x99, 0x99, 0x99, 0xFF}
)

// seriesColor is the colour of series i; the palette repeats after eight,
// and seriesDash tells the repeats apart.
func seriesColor(i int) color.Color { return okabeIto[i%len(okabeIto)] }

// seriesDash is a dash pattern for series i: solid for the first eight.
func seriesDash(i int) []vg.Length {
	if i/len(okabeIto)%2 == 1 {
		return []vg.Length{vg.Points(4), vg.Points(2)}
	}
	return nil
}

// tint is c at the given opacity, for bands and shading.
func tint(c color.NRGBA, alpha uint8) color.NRGBA { c.A = alpha; return c }

// figureWidth is the width of every figure, in points.
const figureWidth = 7 * vg.Inch

// svgFigure renders what draws on a canvas of width by height into a
// Figure whose SVG is one <svg> element: a viewBox kept for scaling, a
// <title>, no XML prolog and no id attributes.
func svgFigure(name, title, alt string, w, h vg.Length, paint func(draw.Canvas)) (Figure, error) {
	c := vgsvg.New(w, h)
	paint(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return Figure{}, fmt.Errorf("render %s plot: %w", name, err)
	}
	return Figure{Name: name, Title: title, Alt: alt, SVG: svgGlue(buf.Bytes(), title)}, nil
}

// svgGlue drops vgsvg's prolog and comment, marks the root as an image
// with a <title>, and gives the font family fallbacks.
func svgGlue(raw []byte, title string) []byte {
	if i := bytes.Index(raw, []byte("<svg ")); i >= 0 {
		raw = raw[i:]
	}
	end := bytes.IndexByte(raw, '>')
	var out bytes.Buffer
	out.Write(raw[:end])
	out.WriteString(` role="img">` + "\n<title>" + html.EscapeString(title) + "</title>")
	body := bytes.ReplaceAll(raw[end+1:], []byte("font-family:Liberation Sans;"),
		[]byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;"))
	out.Write(body)
	return out.Bytes()
}

// drawTitle writes a figure's overall title centred at the top of c and
// returns the canvas below it.
func drawTitle(c draw.Canvas, title string) draw.Canvas {
	sty := draw.TextStyle{Color: colBlack, Font: font.From(plot.DefaultFont, 13),
		XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Points(4)}, title)
	c.Max.Y -= sty.Height(title) + vg.Points(10)
	return c
}

// newPlot is a plot with a title, axis labels and the legend at the top.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	return p
}
