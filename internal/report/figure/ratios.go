package figure

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The points a ratios figure draws: at most maxPairPoints per panel and
// maxRatioPoints over all panels (but minPanelPoints in each); above it
// the pairs are thinned with a fixed stride, the same for the same stream.
const (
	maxPairPoints  = 1500
	maxRatioPoints = 3000
	minPanelPoints = 150
)

// pairChange is one pair's (or round's) change of a contender against the
// reference, 100·(exp(ln(c/r))−1) %, at its place in collection order.
type pairChange struct {
	x        float64
	pct      float64
	refFirst bool
	// unit is the pair's unit number, which the watch windows name.
	unit int
}

// pairKey names a unit: its process block and attempt, and its index.
type pairKey struct{ block, attempt, unit int }

// pairChanges are the per-pair changes of case con against the reference,
// in collection order. x is the unit index, or the pair's ordinal in a
// run collected in process blocks, whose units restart.
func pairChanges(r *model.Run, con int) []pairChange {
	type pair struct{ ref, con *model.Point }
	byKey := map[pairKey]*pair{}
	var order []pairKey
	blocks := false
	for i := range r.Points {
		s := &r.Points[i]
		if s.Case != model.Reference && s.Case != con {
			continue
		}
		k := pairKey{unit: s.Unit}
		if s.Block >= 0 {
			k.block, k.attempt, blocks = s.Block, s.Attempt, true
		}
		p := byKey[k]
		if p == nil {
			p = &pair{}
			byKey[k] = p
			order = append(order, k)
		}
		if s.Case == model.Reference {
			p.ref = s
		} else {
			p.con = s
		}
	}
	var out []pairChange
	for _, k := range order {
		p := byKey[k]
		if p.ref == nil || p.con == nil || !(p.ref.OpNS > 0) || !(p.con.OpNS > 0) {
			continue
		}
		x := float64(k.unit)
		if blocks {
			x = float64(len(out))
		}
		pct := 100 * (math.Exp(math.Log(p.con.OpNS/p.ref.OpNS)) - 1)
		out = append(out, pairChange{x: x, pct: pct, refFirst: p.ref.Pos < p.con.Pos, unit: k.unit})
	}
	return out
}

// pairedComparisons are the run's comparisons made on pairs or rounds.
func pairedComparisons(r *model.Run) []*ndjson.Comparison {
	var out []*ndjson.Comparison
	for k := range r.Comparisons {
		switch c := &r.Comparisons[k]; c.Design {
		case ndjson.DesignPaired, ndjson.DesignRounds:
			out = append(out, c)
		}
	}
	return out
}

// windowCounts counts the watch windows by what was done about them.
type windowCounts struct{ retaken, paused, contaminated int }

func countWindows(ws []ndjson.Window) windowCounts {
	var n windowCounts
	for _, w := range ws {
		switch {
		case w.Action == ndjson.ActionRetaken:
			n.retaken++
		case w.Action == ndjson.ActionPaused:
			n.paused++
		case w.Verdict == ndjson.WindowContaminated:
			n.contaminated++
		}
	}
	return n
}

// text is the windows' counts for a text alternative: "; 2 windows
// retaken, 1 paused", or empty.
func (n windowCounts) text() string {
	var parts []string
	if n.retaken > 0 {
		parts = append(parts, fmt.Sprintf("%d retaken", n.retaken))
	}
	if n.paused > 0 {
		parts = append(parts, fmt.Sprintf("%d paused", n.paused))
	}
	if n.contaminated > 0 {
		parts = append(parts, fmt.Sprintf("%d contaminated but kept", n.contaminated))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; watch windows: " + strings.Join(parts, ", ")
}

// ratiosFigure draws every paired comparison's per-pair changes in
// collection order: one panel per contender, on one y scale.
func ratiosFigure(r *model.Run) (*Figure, string, error) {
	ks := pairedComparisons(r)
	if len(ks) == 0 {
		return nil, fmt.Sprintf("design %q has no pairs or rounds", r.Run.Design), nil
	}
	changes, lo, hi := comparedChanges(r, ks)
	if math.IsInf(lo, 0) {
		return nil, "the stream keeps no samples of its pairs", nil
	}
	lo, hi = ratioScale(changes, lo, hi, ks)
	clipped := 0
	for i := range changes {
		changes[i], clipped = clampChanges(changes[i], lo, hi, clipped)
	}
	refName := r.CaseName(model.Reference)
	l := newLegend()
	panels := make([]*plot.Plot, len(ks))
	for i, k := range ks {
		limit := min(maxPairPoints, max(minPanelPoints, maxRatioPoints/len(ks)))
		p, err := ratioPanel(r, k, changes[i], l, limit, i == 0, len(ks) == 1)
		if err != nil {
			return nil, "", err
		}
		p.Y.Min, p.Y.Max = lo, hi
		panels[i] = p
	}
	if clipped > 0 {
		l.add(fmt.Sprintf("%s beyond %s .. %s drawn on the edge", model.Plural(clipped, words.UnitNoun(r)), model.Pct(lo), model.Pct(hi)))
	}
	title := fmt.Sprintf("Per-%s change against %s", words.UnitNoun(r), elide(refName, 48))
	cols, rows, panelH := panelGrid(panels)
	h := figureLayout(rows, panelH, l)
	alt := ratiosAlt(r, ks) + sampledNote(r)
	if clipped > 0 {
		alt += fmt.Sprintf(" The scale shows %s .. %s; %s beyond it are drawn on its edge.", model.Pct(lo), model.Pct(hi), model.Plural(clipped, words.UnitNoun(r)))
	}
	fig, err := svgFigure("ratios", title, alt, figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, panels, cols, l)
	})
	return &fig, "", err
}

// comparedChanges are the per-pair changes of each comparison's
// contender, and the range they and the comparisons' intervals and
// thresholds span (infinite when no pair has both sides).
func comparedChanges(r *model.Run, ks []*ndjson.Comparison) (changes [][]pairChange, lo, hi float64) {
	changes = make([][]pairChange, len(ks))
	lo, hi = math.Inf(1), math.Inf(-1)
	for i, k := range ks {
		changes[i] = pairChanges(r, k.Contender)
		for _, c := range changes[i] {
			lo, hi = math.Min(lo, c.pct), math.Max(hi, c.pct)
		}
		lo = math.Min(lo, math.Min(k.ChangeCI[0], -k.ThresholdPct))
		hi = math.Max(hi, math.Max(k.ChangeCI[1], k.ThresholdPct))
	}
	return changes, lo, hi
}

// panelGrid lays the contenders' panels out: one tall panel, or up to
// three columns of short ones, of which only the bottom row names the x
// axis and the left column the y axis.
func panelGrid(panels []*plot.Plot) (cols, rows int, panelH vg.Length) {
	cols, panelH = 1, vg.Points(300)
	if len(panels) > 1 {
		cols, panelH = min(3, (len(panels)+3)/4), vg.Points(170)
	}
	for i, p := range panels {
		if i < len(panels)-cols {
			p.X.Label.Text = ""
		}
		if i%cols != 0 {
			p.Y.Label.Text = ""
		}
	}
	return cols, (len(panels) + cols - 1) / cols, panelH
}

// ratioPanel is one contender's panel; the first panel also fills the
// figure's legend.
func ratioPanel(r *model.Run, k *ndjson.Comparison, changes []pairChange, l *legend, limit int, first, single bool) (*plot.Plot, error) {
	con := r.CaseName(k.Contender)
	title := elide(con, 32) + " vs " + elide(r.CaseName(model.Reference), 32)
	if !single {
		title = elide(con, 26) // the figure's title names the reference
	}
	p := newPlot(title, words.UnitNoun(r)+" (collection order)", r.TimeLabel("time")+" change (%)")
	thr := &band{Lo: -k.ThresholdPct, Hi: k.ThresholdPct, Fill: tint(colGrey, 0x55)}
	p.Add(thr)
	spans := windowSpans(r, changes)
	for _, s := range spans {
		p.Add(s)
	}
	estBand := &band{Lo: k.ChangeCI[0], Hi: k.ChangeCI[1], Fill: tint(colGreen, 0x60),
		Line: &draw.LineStyle{Color: colBlack, Width: vg.Points(1)}, Mid: k.ChangePct}
	p.Add(estBand)
	refFirst, conFirst := splitByLeader(changes, limit)
	sr, err := pairScatter(refFirst, colBlue, draw.CircleGlyph{})
	if err != nil {
		return nil, err
	}
	sc, err := pairScatter(conFirst, colOrange, draw.TriangleGlyph{})
	if err != nil {
		return nil, err
	}
	p.Add(sr, sc)
	if first {
		ref := r.CaseName(model.Reference)
		led := "the contender"
		if single {
			led = con
		}
		l.add(fmt.Sprintf("%s ran first", elide(ref, 48)), sr)
		l.add(fmt.Sprintf("%s ran first", elide(led, 48)), sc)
		est := fmt.Sprintf("estimate and %s", r.CILabel())
		if !single {
			est += " (each panel its own)"
		}
		l.add(est, estBand)
		l.add(fmt.Sprintf("practical threshold ±%s%%", model.Plain(k.ThresholdPct)), thr)
		addWindowLegend(l, r.Windows)
	}
	return p, nil
}

// splitByLeader thins the changes to at most limit with a fixed
// stride and splits them by who ran first.
func splitByLeader(changes []pairChange, limit int) (refFirst, conFirst plotter.XYs) {
	stride := (len(changes) + limit - 1) / limit
	for i := 0; i < len(changes); i += max(stride, 1) {
		c := changes[i]
		pt := plotter.XY{X: c.x, Y: c.pct}
		if c.refFirst {
			refFirst = append(refFirst, pt)
		} else {
			conFirst = append(conFirst, pt)
		}
	}
	return refFirst, conFirst
}

// pairScatter draws points with a glyph and colour; an empty set draws
// nothing but still gives the legend its thumbnail.
func pairScatter(xys plotter.XYs, col color.Color, shape draw.GlyphDrawer) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, fmt.Errorf("ratios plot: %w", err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2), Shape: shape}
	return s, nil
}

// Shading of the watch windows whose units were collected again, and of
// those kept although contaminated.
var (
	shadeRetaken      = tint(colPurple, 0x40)
	shadeContaminated = tint(colVermillion, 0x40)
)

// windowSpans shade the units of the windows that were retaken or paused
// (the units shown were collected again after them) and of contaminated
// windows that were kept. A run in process blocks draws its pairs by
// ordinal: a window covers the pairs of its units, and when a unit number
// repeats (blocks that number their units afresh, attempts of a block)
// the windows cannot be placed and are left out.
func windowSpans(r *model.Run, changes []pairChange) []*band {
	blocks := false
	for _, p := range r.Points {
		blocks = blocks || p.Block >= 0
	}
	xs := map[int]float64{}
	for _, c := range changes {
		if _, dup := xs[c.unit]; dup && blocks {
			return nil
		}
		xs[c.unit] = c.x
	}
	var out []*band
	for _, w := range r.Windows {
		fill := windowShade(w)
		if fill == nil || w.Units == 0 {
			continue
		}
		lo, hi := float64(w.FirstUnit), float64(w.FirstUnit+w.Units-1)
		if blocks {
			lo, hi = math.Inf(1), math.Inf(-1)
			for u := w.FirstUnit; u < w.FirstUnit+w.Units; u++ {
				if x, ok := xs[u]; ok {
					lo, hi = math.Min(lo, x), math.Max(hi, x)
				}
			}
			if lo > hi {
				continue // none of its pairs is drawn
			}
		}
		out = append(out, &band{Lo: lo - 0.5, Hi: hi + 0.5, Vertical: true, Fill: fill})
	}
	return out
}

// windowShade is a window's shading, nil for one kept clean.
func windowShade(w ndjson.Window) color.Color {
	switch {
	case w.Action == ndjson.ActionRetaken || w.Action == ndjson.ActionPaused:
		return shadeRetaken
	case w.Verdict == ndjson.WindowContaminated:
		return shadeContaminated
	}
	return nil
}

// addWindowLegend names the window shadings the run uses.
func addWindowLegend(l *legend, ws []ndjson.Window) {
	n := countWindows(ws)
	if n.retaken+n.paused > 0 {
		l.add("window retaken or paused (units collected again)", &band{Fill: shadeRetaken})
	}
	if n.contaminated > 0 {
		l.add("window contaminated, kept", &band{Fill: shadeContaminated})
	}
}

// ratiosAlt says what the ratios figure shows, with its key numbers.
func ratiosAlt(r *model.Run, ks []*ndjson.Comparison) string {
	ref := r.CaseName(model.Reference)
	windows := countWindows(r.Windows).text()
	if len(ks) == 1 {
		k := ks[0]
		return fmt.Sprintf("Per-%s change of %s against %s in collection order, %d %ss: estimate %s, %s %s, practical threshold ±%s%%%s.",
			words.UnitNoun(r), r.CaseName(k.Contender), ref, len(pairChanges(r, k.Contender)), words.UnitNoun(r),
			model.Pct(k.ChangePct), r.CILabel(), model.PctRange(k.ChangeCI), model.Plain(k.ThresholdPct), windows)
	}
	lo, hi := extremes(ks, func(k *ndjson.Comparison) float64 { return k.ChangePct })
	return fmt.Sprintf("Per-%s change of %d contenders against %s in collection order, one panel each: estimates from %s (%s) to %s (%s), practical threshold ±%s%%%s.",
		words.UnitNoun(r), len(ks), ref, model.Pct(lo.ChangePct), r.CaseName(lo.Contender), model.Pct(hi.ChangePct), r.CaseName(hi.Contender),
		model.Plain(ks[0].ThresholdPct), windows)
}

// ratioScale is the y scale of the ratios figure: every change when the
// extremes are near the bulk, else the 2.5th to 97.5th percentile widened
// by a quarter, so one preempted pair does not flatten a thousand others. The
// intervals and the threshold band always fit.
func ratioScale(changes [][]pairChange, lo, hi float64, ks []*ndjson.Comparison) (float64, float64) {
	var all []float64
	for _, cs := range changes {
		for _, c := range cs {
			all = append(all, c.pct)
		}
	}
	if len(all) < 20 {
		return lo, hi
	}
	sort.Float64s(all)
	q := func(p float64) float64 { return all[int(p*float64(len(all)-1))] }
	qlo, qhi := q(0.025), q(0.975)
	pad := 0.25 * (qhi - qlo)
	slo, shi := qlo-pad, qhi+pad
	for _, k := range ks {
		slo = math.Min(slo, math.Min(k.ChangeCI[0], -k.ThresholdPct))
		shi = math.Max(shi, math.Max(k.ChangeCI[1], k.ThresholdPct))
	}
	// Clip only when it gains at least a third of the height.
	if (shi-slo)*1.5 > hi-lo {
		return lo, hi
	}
	return math.Max(lo, slo), math.Min(hi, shi)
}

// clampChanges pins the changes outside lo..hi to the nearer bound and
// adds their count to clipped.
func clampChanges(cs []pairChange, lo, hi float64, clipped int) ([]pairChange, int) {
	out := make([]pairChange, len(cs))
	for i, c := range cs {
		if c.pct < lo || c.pct > hi {
			c.pct = math.Min(math.Max(c.pct, lo), hi)
			clipped++
		}
		out[i] = c
	}
	return out, clipped
}
