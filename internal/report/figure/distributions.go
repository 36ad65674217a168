package figure

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
)

// maxStripPoints caps the strip points of a distributions figure over
// all cases; each case keeps between minCaseStrip and maxCaseStrip.
const (
	maxStripPoints = 1600
	minCaseStrip   = 60
	maxCaseStrip   = 300
)

// caseTimes are the per-operation times of each case, in collection
// order, skipping values that are not positive.
func caseTimes(r *model.Run) [][]float64 {
	times := make([][]float64, len(r.Run.Cases))
	for _, p := range r.Points {
		if p.Case >= 0 && p.Case < len(times) && p.OpNS > 0 {
			times[p.Case] = append(times[p.Case], p.OpNS)
		}
	}
	return times
}

// distributionsFigure draws each case's per-operation times on one axis:
// a box plot (quartiles, median, whiskers at 1.5 IQR, points beyond) over
// a thinned strip of the samples, one row per case, the reference on top.
func distributionsFigure(r *model.Run) (*Figure, string, error) {
	times := caseTimes(r)
	var all []float64
	for _, t := range times {
		all = append(all, t...)
	}
	if len(all) == 0 {
		return nil, "the stream keeps no samples", nil
	}
	unit := model.UnitFor(medianOf(all))
	n := len(times)
	perCase := min(maxCaseStrip, max(minCaseStrip, maxStripPoints/n))
	p := newPlot("", r.TimeLabel("time")+" per operation ("+unit.Name+")", "")
	names := make([]string, n)

	var strip *plotter.Scatter
	thinned, ringsThinned := false, false
	for i, t := range times {
		y := float64(n - 1 - i)
		names[n-1-i] = elide(r.CaseName(i), 36)
		if len(t) == 0 {
			continue
		}
		scaled := make(plotter.Values, len(t))
		for j, v := range t {
			scaled[j] = v / unit.NS
		}
		s, err := stripScatter(scaled, y, perCase, i)
		if err != nil {
			return nil, "", err
		}
		b, many, err := caseBox(scaled, y)
		if err != nil {
			return nil, "", err
		}
		ringsThinned = ringsThinned || many
		p.Add(s, b)
		strip = s
		thinned = thinned || len(t) > perCase
	}
	p.NominalY(names...)
	logScale(p, all)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	l := distributionsLegend(r, strip, ringsThinned, thinned, perCase)
	title := "Per-operation " + r.TimeLabel("time") + " by case"
	h := figureLayout(1, vg.Points(60+22*float64(n)), l)
	fig, err := svgFigure("distributions", title, distributionsAlt(r, times)+sampledNote(r), figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, []*plot.Plot{p}, 1, l)
	})
	return &fig, "", err
}

// caseBox is a case's box plot on row y: quartiles and median, whiskers
// at 1.5 IQR and at most maxOutsideRings rings beyond them, in black;
// many says the case had more rings than that.
func caseBox(v plotter.Values, y float64) (b *plotter.BoxPlot, many bool, err error) {
	b, err = plotter.NewBoxPlot(vg.Points(14), y, v)
	if err != nil {
		return nil, false, fmt.Errorf("distributions plot: %w", err)
	}
	b.Horizontal = true
	b.BoxStyle.Color, b.MedianStyle.Color, b.WhiskerStyle.Color = colBlack, colBlack, colBlack
	b.MedianStyle.Width = vg.Points(1.5)
	b.GlyphStyle = draw.GlyphStyle{Color: colBlack, Radius: vg.Points(2), Shape: draw.RingGlyph{}}
	many = len(b.Outside) > maxOutsideRings
	b.Outside = thinOutside(b.Outside, v, maxOutsideRings)
	return b, many, nil
}

// distributionsLegend names the boxes and the strip of samples, saying
// how either was thinned.
func distributionsLegend(r *model.Run, strip *plotter.Scatter, ringsThinned, stripThinned bool, perCase int) *legend {
	l := newLegend()
	rings := "quartiles and median; whiskers to 1.5 IQR; rings beyond"
	if ringsThinned {
		rings += fmt.Sprintf(" (at most %d per case, the extremes included)", maxOutsideRings)
	}
	l.add(rings, boxThumb)
	what := "every sample"
	switch {
	case r.Thinned:
		what = fmt.Sprintf("samples of a seeded sample of the %ss (at most %d per case, evenly strided)", words.UnitNoun(r), perCase)
	case stripThinned:
		what = fmt.Sprintf("samples (at most %d per case, evenly strided)", perCase)
	}
	l.add(what, strip)
	return l
}

// stripScatter draws at most limit of a case's values (a fixed stride),
// spread over their row by a fixed jitter, in the case's colour.
func stripScatter(v plotter.Values, y float64, limit, i int) (*plotter.Scatter, error) {
	stride := max(1, (len(v)+limit-1)/limit)
	var xys plotter.XYs
	for j := 0; j < len(v); j += stride {
		jitter := math.Mod(float64(j/stride)*0.618033988749895, 1) - 0.5
		xys = append(xys, plotter.XY{X: v[j], Y: y + 0.6*jitter})
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, fmt.Errorf("distributions plot: %w", err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: tint(okabeIto[i%6], 0x99), Radius: vg.Points(1.5),
		Shape: draw.CircleGlyph{}}
	return s, nil
}

// medianOf is the middle value of x (the upper of the two for an even
// count): only to choose a display unit.
func medianOf(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}

// logScale puts the x axis of p on a log scale, and says so, when the
// values span more than a factor of 20.
func logScale(p *plot.Plot, values []float64) {
	if spread(values) > 20 {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Label.Text += ", log scale"
	}
}

// spread is the ratio of the largest to the smallest positive value.
func spread(x []float64) float64 {
	lo, hi := model.Bounds(x)
	if lo <= 0 {
		return 1
	}
	return hi / lo
}

// distributionsAlt names each case's median from the summaries, or the
// fastest and slowest for more than four cases.
func distributionsAlt(r *model.Run, times [][]float64) string {
	type med struct {
		name string
		ns   float64
		n    int
	}
	var meds []med
	for i := range times {
		if s := r.Summary(i); s != nil {
			meds = append(meds, med{r.CaseName(i), s.Median, s.N})
		}
	}
	head := fmt.Sprintf("Per-operation %s of %s as box plots over the samples.", r.TimeLabel("time"), model.Plural(len(times), "case"))
	if len(meds) == 0 {
		return head
	}
	if len(meds) <= 4 {
		var parts []string
		for _, m := range meds {
			parts = append(parts, fmt.Sprintf("%s %s (%d samples)", m.name, model.Dur(m.ns), m.n))
		}
		return head + " Medians: " + strings.Join(parts, ", ") + "."
	}
	lo, hi := extremes(meds, func(m med) float64 { return m.ns })
	return head + fmt.Sprintf(" Medians from %s (%s) to %s (%s).", model.Dur(lo.ns), lo.name, model.Dur(hi.ns), hi.name)
}

// maxOutsideRings is the most points beyond the whiskers drawn per case:
// a heavy tail of 50,000 samples has thousands.
const maxOutsideRings = 120

// thinOutside keeps at most limit of the points beyond the whiskers, by
// a fixed stride over them in value order, the lowest and highest
// always among them.
func thinOutside(out []int, v plotter.Values, limit int) []int {
	if len(out) <= limit {
		return out
	}
	sorted := slices.Clone(out)
	slices.SortFunc(sorted, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	kept := make([]int, 0, limit)
	for k := range limit {
		kept = append(kept, sorted[k*(len(sorted)-1)/(limit-1)])
	}
	return kept
}
