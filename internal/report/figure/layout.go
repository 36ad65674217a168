package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legend is a figure's one legend, drawn beneath its panels, in columns
// of at most legendRows entries.
type legend struct {
	entries []legendEntry
}

type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// legendRows is the most entries a legend column holds.
const legendRows = 8

func newLegend() *legend { return &legend{} }

// add adds an entry drawn with the thumbnails.
func (l *legend) add(name string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendEntry{name, thumbs})
}

// height is the room the legend takes beneath the panels.
func (l *legend) height() vg.Length {
	if l == nil || len(l.entries) == 0 {
		return 0
	}
	return vg.Length(min(len(l.entries), legendRows))*vg.Points(13) + vg.Points(8)
}

// draw draws the legend's columns side by side from the left of c.
func (l *legend) draw(c draw.Canvas) {
	x := c.Min.X
	for start := 0; start < len(l.entries); start += legendRows {
		col := plot.NewLegend()
		col.TextStyle.Font.Size = vg.Points(9)
		col.Left, col.Top = true, true
		col.Padding = vg.Points(2)
		for _, e := range l.entries[start:min(start+legendRows, len(l.entries))] {
			col.Add(e.name, e.thumbs...)
		}
		cc := c
		cc.Min.X = x
		col.Draw(cc)
		r := col.Rectangle(cc)
		x += r.Max.X - r.Min.X + vg.Points(18)
	}
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
		l.draw(lc)
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

// plainTicks are gonum's default ticks labelled with as many decimals as
// their spacing needs: "0", "25", "50" for batches, "28.85", "28.9" for a
// narrow range.
type plainTicks struct{}

// Ticks implements plot.Ticker.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	var major []float64
	for _, t := range ticks {
		if t.Label != "" {
			major = append(major, t.Value)
		}
	}
	prec := 0
	if len(major) > 1 {
		prec = max(0, int(math.Ceil(-math.Log10(major[1]-major[0])-1e-9)))
	}
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', prec, 64)
		}
	}
	return ticks
}

// elide shortens a name drawn on a plot to n characters, keeping its
// start and, longer, its end ("/tmp/…/spin -n 105000"): commands used as
// case names differ at the end. Text alternatives keep whole names.
func elide(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 3
	return string(r[:head]) + "…" + string(r[len(r)-(n-1-head):])
}

// extremes are the first items of xs with the lowest and the highest
// key, for the text alternatives that name a range; xs is not empty.
func extremes[T any](xs []T, key func(T) float64) (lo, hi T) {
	lo, hi = xs[0], xs[0]
	for _, x := range xs[1:] {
		if key(x) < key(lo) {
			lo = x
		}
		if key(x) > key(hi) {
			hi = x
		}
	}
	return lo, hi
}
