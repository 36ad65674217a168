package figure

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// axisRow is one axis of one comparison in the axes figure: drawn as a
// relative change with its interval, or written as text (an absolute
// difference, which has no place on a % scale, or an unavailable axis's
// status), never drawn as zero.
type axisRow struct {
	label   string
	drawn   bool
	change  interval
	verdict string
	// text says what a row that is not drawn holds, with its axis's
	// name (the alt text); mark is what the plot writes on its row.
	text string
	mark string
}

// axisRows are the rows of every comparison's axes, in stream order.
func axisRows(r *model.Run) []axisRow {
	ks := r.AllComparisons()
	var rows []axisRow
	for _, k := range ks {
		_, con := words.Names(r, k)
		for _, a := range k.Axes {
			row := axisRow{label: a.Name}
			if len(ks) > 1 {
				row.label = elide(con, 20) + ": " + a.Name
			}
			switch res := a.Result; {
			case !a.Available || res == nil:
				row.mark = "unavailable: " + model.StatusText(a.Status)
				row.text = a.Name + " " + row.mark
			case res.Method == ndjson.AxisMethodRelative:
				row.drawn, row.verdict = true, res.Verdict
				row.change = interval{x: res.Change, lo: res.CI[0], hi: res.CI[1]}
			default:
				change := fmt.Sprintf("%s (%s), %s", model.SignedAxis(res.Change, a.Unit),
					model.AxisRange(res.CI[0], res.CI[1], a.Unit, true), res.Verdict)
				row.mark = "Δ " + change
				row.text = fmt.Sprintf("%s: %s %s; not on the %% scale", a.Name, res.Method, change)
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// axesFigure draws every axis of every comparison, one row each: the
// change with its interval coloured by verdict, and as text the axes
// that have no value on that scale.
func axesFigure(r *model.Run) (*Figure, string, error) {
	if len(r.AllComparisons()) == 0 {
		return nil, "the run has no comparisons (a single case)", nil
	}
	rows := axisRows(r)
	if len(rows) == 0 {
		return nil, "the comparisons carry no per-axis results", nil
	}
	thr := r.AllComparisons()[0].ThresholdPct
	p := newPlot("", "change, contender vs reference (%)", "")
	l := newLegend()
	thrBand := &band{Lo: -thr, Hi: thr, Vertical: true, Fill: tint(colGrey, 0x55)}
	p.Add(thrBand, zeroLine())
	var names, verdicts []string
	var drawn intervals
	lo := -thr
	for i, row := range rows {
		names = append(names, row.label)
		if row.drawn {
			row.change.y = rowY(i, len(rows))
			drawn = append(drawn, row.change)
			verdicts = append(verdicts, row.verdict)
			lo = math.Min(lo, row.change.lo)
		}
	}
	if err := addIntervals(p, l, verdicts, drawn, "axes"); err != nil {
		return nil, "", err
	}
	if err := addRowTexts(p, rows, lo); err != nil {
		return nil, "", err
	}
	l.add(fmt.Sprintf("practical threshold ±%s%%; bars: confidence intervals", model.Plain(thr)), thrBand)
	rowLabels(p, names)
	title := "Change of every axis"
	h := figureLayout(1, vg.Points(70+20*float64(len(rows))), l)
	fig, err := svgFigure("axes", title, axesAlt(rows), figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, []*plot.Plot{p}, 1, l)
	})
	return &fig, "", err
}

// addRowTexts writes the rows that are not drawn, as text from the left
// end of the scale.
func addRowTexts(p *plot.Plot, rows []axisRow, x float64) error {
	var lab plotter.XYLabels
	for i, row := range rows {
		if !row.drawn {
			lab.XYs = append(lab.XYs, plotter.XY{X: x, Y: rowY(i, len(rows))})
			lab.Labels = append(lab.Labels, row.mark)
		}
	}
	if len(lab.Labels) == 0 {
		return nil
	}
	labels, err := plotter.NewLabels(lab)
	if err != nil {
		return fmt.Errorf("axes plot: %w", err)
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i] = text.Style{Color: colBlack, Font: labels.TextStyle[i].Font,
			YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}
	}
	p.Add(unpadded{labels})
	return nil
}

// unpadded draws labels without asking the plot to make room for them:
// gonum pads the data area so every glyph fits, and rows of long text
// at the left end of the scale would leave it no width at all (NaN
// coordinates). The text runs on to the right over the empty rows.
type unpadded struct{ l *plotter.Labels }

func (u unpadded) Plot(c draw.Canvas, p *plot.Plot) { u.l.Plot(c, p) }

func (u unpadded) DataRange() (xmin, xmax, ymin, ymax float64) { return u.l.DataRange() }

// axesAlt counts the axes drawn and names those written as text.
func axesAlt(rows []axisRow) string {
	var drawn int
	var texts []string
	for _, row := range rows {
		if row.drawn {
			drawn++
			continue
		}
		texts = append(texts, row.text)
	}
	alt := fmt.Sprintf("Change of %s with intervals and verdicts", axesCount(drawn))
	if len(texts) == 0 {
		return alt + "."
	}
	const most = 6
	more := ""
	if len(texts) > most {
		texts, more = texts[:most], fmt.Sprintf(" and %d more", len(texts)-most)
	}
	return alt + "; not drawn: " + strings.Join(texts, "; ") + more + "."
}

// axesCount is "1 axis", "2 axes".
func axesCount(n int) string {
	if n == 1 {
		return "1 axis"
	}
	return fmt.Sprintf("%d axes", n)
}
