package figure

import (
	"fmt"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/words"
	"github.com/flybench/flybench/pkg/ndjson"
)

// forestFigure draws every comparison's change with its interval against
// the ±threshold band, one row each, the baseline comparisons last.
func forestFigure(r *model.Run) (*Figure, string, error) {
	ks := r.AllComparisons()
	if len(ks) == 0 {
		return nil, "the run has no comparisons (a single case)", nil
	}
	var names, verdicts []string
	var rows intervals
	for i, k := range ks {
		names = append(names, forestRow(r, k))
		verdicts = append(verdicts, string(k.Verdict))
		rows = append(rows, interval{x: k.ChangePct, y: rowY(i, len(ks)), lo: k.ChangeCI[0], hi: k.ChangeCI[1]})
	}
	thr := ks[0].ThresholdPct
	p := newPlot("", r.TimeLabel("time")+" change vs "+elide(r.CaseName(model.Reference), 40)+" (%)", "")
	l := newLegend()
	thrBand := &band{Lo: -thr, Hi: thr, Vertical: true, Fill: tint(colGrey, 0x55)}
	p.Add(thrBand, zeroLine())
	if err := addIntervals(p, l, verdicts, rows, "forest"); err != nil {
		return nil, "", err
	}
	l.add(fmt.Sprintf("practical threshold ±%s%%; bars: %s", model.Plain(thr), r.CILabel()), thrBand)
	rowLabels(p, names)
	title := "Change and interval of every comparison"
	h := figureLayout(1, vg.Points(70+24*float64(len(ks))), l)
	fig, err := svgFigure("forest", title, forestAlt(r, ks), figureWidth, h, func(c draw.Canvas) {
		drawFigure(c, title, []*plot.Plot{p}, 1, l)
	})
	return &fig, "", err
}

// forestLabel names a comparison's row; a baseline comparison says so.
func forestLabel(r *model.Run, k *ndjson.Comparison) string {
	ref, con := words.Names(r, k)
	if k.Design == ndjson.DesignIndependent {
		return con + " vs baseline " + ref
	}
	return con + " vs " + ref
}

// forestRow is a comparison's row label on the plot: the contender, and
// the reference only for a baseline row (the axis names the run's).
func forestRow(r *model.Run, k *ndjson.Comparison) string {
	ref, con := words.Names(r, k)
	if k.Design == ndjson.DesignIndependent {
		return elide(con, 20) + " vs baseline " + elide(ref, 16)
	}
	return elide(con, 36)
}

// forestAlt gives each comparison's numbers, or for more than four the
// count of each verdict.
func forestAlt(r *model.Run, ks []*ndjson.Comparison) string {
	head := fmt.Sprintf("Change of %s with %s against the practical threshold ±%s%%",
		model.Plural(len(ks), "comparison"), r.CILabel(), model.Plain(ks[0].ThresholdPct))
	if len(ks) <= 4 {
		var parts []string
		for _, k := range ks {
			parts = append(parts, fmt.Sprintf("%s %s (%s), %s", forestLabel(r, k), model.Pct(k.ChangePct), model.PctRange(k.ChangeCI), k.Verdict))
		}
		return head + ": " + strings.Join(parts, "; ") + "."
	}
	count := map[string]int{}
	var order []string
	for _, k := range ks {
		if count[string(k.Verdict)] == 0 {
			order = append(order, string(k.Verdict))
		}
		count[string(k.Verdict)]++
	}
	var parts []string
	for _, v := range order {
		parts = append(parts, fmt.Sprintf("%d %s", count[v], v))
	}
	return head + ": " + strings.Join(parts, ", ") + "."
}
