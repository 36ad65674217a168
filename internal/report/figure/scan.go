package figure

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
)

// maxScanSeries is the most lines a scan figure draws, one per
// combination of the parameters other than the one on the x axis.
const maxScanSeries = 8

// scanPoint is one case of a scan: its value of the x parameter, its
// median time per operation and its paired change against the
// reference with the interval (none for the reference itself).
type scanPoint struct {
	x, median      float64
	change, lo, hi float64
	compared       bool
}

// scanPoints implement plotter.XYer and plotter.YErrorer for the changes.
type scanPoints []scanPoint

func (s scanPoints) Len() int                    { return len(s) }
func (s scanPoints) XY(i int) (float64, float64) { return s[i].x, s[i].change }
func (s scanPoints) YError(i int) (float64, float64) {
	return math.Abs(s[i].change - s[i].lo), math.Abs(s[i].hi - s[i].change)
}

// scanAxis is the parameter a scan is drawn against: among those whose
// every value is a number, the one with the most distinct values (the
// first in name order on a tie); "" when none is numeric or the run is
// no scan.
func scanAxis(r *model.Run) string {
	distinct := map[string]map[string]bool{}
	numeric := map[string]bool{}
	for _, c := range r.Run.Cases {
		if len(c.Params) == 0 {
			return ""
		}
		for k, v := range c.Params {
			if distinct[k] == nil {
				distinct[k], numeric[k] = map[string]bool{}, true
			}
			distinct[k][v] = true
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				numeric[k] = false
			}
		}
	}
	best := ""
	for _, k := range slices.Sorted(maps.Keys(distinct)) {
		if numeric[k] && len(distinct[k]) > 1 && (best == "" || len(distinct[k]) > len(distinct[best])) {
			best = k
		}
	}
	return best
}

// seriesLabel names a case's line: its other parameters, "NAME=value"
// in name order, or "" for a scan of one parameter.
func seriesLabel(params map[string]string, axis string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(params)) {
		if k != axis {
			parts = append(parts, k+"="+params[k])
		}
	}
	return strings.Join(parts, ", ")
}

// scanFigure draws a parameter scan against its numeric parameter: each
// case's median time per operation, and its paired change against the
// reference with the interval and the threshold band, one line per
// combination of the other parameters.
func scanFigure(r *model.Run) (*Figure, string, error) {
	axis := scanAxis(r)
	if axis == "" {
		return nil, "the run is no parameter scan over numeric values (fb-pair -P NAME=LO..HI or -L with numbers)", nil
	}
	labels, series, medians := scanSeries(r, axis)
	if len(medians) < 2 {
		return nil, "fewer than two cases of the scan have a summary", nil
	}
	if len(labels) > maxScanSeries {
		return nil, fmt.Sprintf("%d combinations of the other parameters: more than %d lines", len(labels), maxScanSeries), nil
	}
	unit := model.UnitFor(medianOf(medians))
	timeName := r.TimeLabel("time")
	top := newPlot("Median "+timeName+" per operation", axis, timeName+" per operation ("+unit.Name+")")
	bottom := newPlot("Change against "+elide(r.CaseName(model.Reference), 40), axis, timeName+" change (%)")
	l := newLegend()
	thr := 0.0
	if len(r.Comparisons) > 0 {
		thr = r.Comparisons[0].ThresholdPct
	}
	band := &band{Lo: -thr, Hi: thr, Fill: tint(colGrey, 0x55)}
	bottom.Add(band)
	for i, label := range labels {
		name := label
		if name == "" {
			name = "median; change with its " + r.CILabel()
		}
		if err := addScanSeries(top, bottom, l, series[label], i, unit, elide(name, 60)); err != nil {
			return nil, "", err
		}
	}
	l.add(fmt.Sprintf("practical threshold ±%s%%", model.Plain(thr)), band)
	// One x scale for both panels: the parameter's values.
	xlo, xhi := scanRange(series)
	top.X.Min, top.X.Max = xlo, xhi
	bottom.X.Min, bottom.X.Max = xlo, xhi
	title := "Scan of " + axis
	h := figureLayout(2, vg.Points(200), l)
	fig, err := svgFigure("scan", title, scanAlt(r, axis, labels, series), figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, []*plot.Plot{top, bottom}, 1, l)
	})
	return &fig, "", err
}

// scanSeries gathers the cases with a summary into lines by their other
// parameters: the lines' labels in the order they first appear, each
// line's points, and every case's median.
func scanSeries(r *model.Run, axis string) (labels []string, series map[string]scanPoints, medians []float64) {
	series = map[string]scanPoints{}
	for i, c := range r.Run.Cases {
		s := r.Summary(i)
		if s == nil || !(s.Median > 0) {
			continue
		}
		x, _ := strconv.ParseFloat(c.Params[axis], 64)
		pt := scanPoint{x: x, median: s.Median}
		if k := r.Against(i); k != nil {
			pt.change, pt.lo, pt.hi, pt.compared = k.ChangePct, k.ChangeCI[0], k.ChangeCI[1], true
		} else if i == model.Reference {
			pt.compared = true // the reference: 0 by definition, no interval
		}
		label := seriesLabel(c.Params, axis)
		if _, ok := series[label]; !ok {
			labels = append(labels, label)
		}
		series[label] = append(series[label], pt)
		medians = append(medians, s.Median)
	}
	return labels, series, medians
}

// scanRange is the smallest and largest value of the parameter.
func scanRange(series map[string]scanPoints) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, pts := range series {
		for _, p := range pts {
			lo, hi = math.Min(lo, p.x), math.Max(hi, p.x)
		}
	}
	return lo, hi
}

// addScanSeries draws line i: its medians on top, its changes with their
// intervals beneath, and its legend entry. It sorts pts by the parameter
// in place, as the text alternative reads them.
func addScanSeries(top, bottom *plot.Plot, l *legend, pts scanPoints, i int, unit model.TimeUnit, name string) error {
	sort.SliceStable(pts, func(a, b int) bool { return pts[a].x < pts[b].x })
	var med plotter.XYs
	var changes scanPoints
	for _, p := range pts {
		med = append(med, plotter.XY{X: p.x, Y: p.median / unit.NS})
		if p.compared {
			changes = append(changes, p)
		}
	}
	line, points, err := plotter.NewLinePoints(med)
	if err != nil {
		return fmt.Errorf("scan plot: %w", err)
	}
	scanStyle(line, points, i)
	top.Add(line, points)
	if len(changes) > 0 {
		cl, cp, err := plotter.NewLinePoints(changes)
		if err != nil {
			return fmt.Errorf("scan plot: %w", err)
		}
		scanStyle(cl, cp, i)
		bars, err := plotter.NewYErrorBars(changes)
		if err != nil {
			return fmt.Errorf("scan plot: %w", err)
		}
		bars.LineStyle = draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1)}
		bottom.Add(cl, cp, bars)
	}
	l.add(name, line, points)
	return nil
}

// scanStyle gives series i its colour, dash and glyph.
func scanStyle(line *plotter.Line, points *plotter.Scatter, i int) {
	line.LineStyle = draw.LineStyle{Color: seriesColor(i), Width: vg.Points(1.2), Dashes: seriesDash(i)}
	points.GlyphStyle = draw.GlyphStyle{Color: seriesColor(i), Radius: vg.Points(2.2), Shape: percentileLooks[i%len(percentileLooks)]}
}

// scanAlt gives each line's first and last median and change.
func scanAlt(r *model.Run, axis string, labels []string, series map[string]scanPoints) string {
	var parts []string
	for _, label := range labels {
		pts := series[label]
		first, last := pts[0], pts[len(pts)-1]
		text := fmt.Sprintf("median %s per operation from %s at %s=%s to %s at %s=%s",
			r.TimeLabel("time"), model.Dur(first.median), axis, model.Plain(first.x), model.Dur(last.median), axis, model.Plain(last.x))
		if last.compared && (last.lo != 0 || last.hi != 0) {
			text += fmt.Sprintf(", the last %s against the reference (%s)", model.Pct(last.change), model.PctRange([2]float64{last.lo, last.hi}))
		}
		if label != "" {
			text = label + ": " + text
		}
		parts = append(parts, text)
	}
	return fmt.Sprintf("Parameter scan against %s, %s: %s.", axis, model.Plural(len(r.Run.Cases), "case"), strings.Join(parts, "; "))
}
