package report

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legend is a figure's one legend, drawn beneath its panels.
type legend struct {
	plot.Legend
	n int
}

func newLegend() *legend {
	l := &legend{Legend: plot.NewLegend()}
	l.TextStyle.Font.Size = vg.Points(9)
	l.Left, l.Top = true, true
	l.Padding = vg.Points(2)
	return l
}

// add adds an entry drawn with the thumbnails.
func (l *legend) add(name string, thumbs ...plot.Thumbnailer) {
	l.Add(name, thumbs...)
	l.n++
}

// height is the room the legend takes beneath the panels.
func (l *legend) height() vg.Length {
	if l == nil || l.n == 0 {
		return 0
	}
	return vg.Length(l.n)*vg.Points(13) + vg.Points(8)
}

// figureLayout is a figure's height for rows of panels of panelHeight,
// its title and its legend.
func figureLayout(rows int, panelHeight vg.Length, l *legend) vg.Length {
	return vg.Length(rows)*panelHeight + vg.Points(26) + l.height()
}

// drawFigure draws a figure: the title at the top, the panels in a grid
// of cols columns (row-major, each with its own title and axes, aligned
// with plot.Align), and the legend beneath them.
func drawFigure(c draw.Canvas, title string, panels []*plot.Plot, cols int, l *legend) {
	c = drawTitle(c, title)
	if h := l.height(); h > 0 {
		lc := c
		lc.Max.Y = c.Min.Y + h
		lc.Min.X += vg.Points(12)
		l.Draw(lc)
		c.Min.Y += h
	}
	rows := (len(panels) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for j := range grid {
		grid[j] = make([]*plot.Plot, cols)
		for i := range cols {
			if k := j*cols + i; k < len(panels) {
				grid[j][i] = panels[k]
			}
		}
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(10),
		PadLeft: vg.Points(4), PadRight: vg.Points(8)}
	canvases := plot.Align(grid, tiles, c)
	for j, row := range grid {
		for i, p := range row {
			if p != nil {
				p.Draw(canvases[j][i])
			}
		}
	}
}
