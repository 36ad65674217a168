package analyze

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// compare builds the comparison of case c against case 0. Paired and
// round designs compare samples of the same unit, which ran adjacently;
// a sequential design has no such pairs, so its blocks are compared as
// independent samples and labelled as exposed to drift.
func (d *runData) compare(c int, opt Options) (*ndjson.Comparison, error) {
	var (
		p   stats.Paired
		err error
	)
	stream := fmt.Sprintf("compare/0/%d", c)
	if d.run.Design == ndjson.DesignSequential {
		p, err = stats.CompareIndependent(d.ops(0), d.ops(c), opt.bootstrap(), opt.ThresholdPct, stream)
	} else {
		p, err = stats.ComparePaired(d.pairs(c), opt.bootstrap(), opt.ThresholdPct, stream)
	}
	if err != nil {
		return nil, err
	}
	rec := &ndjson.Comparison{
		RunID: d.run.RunID, Reference: 0, Contender: c, ReferenceName: d.name(0), ContenderName: d.name(c),
		Design: d.run.Design, Batching: d.run.Batching, Pairs: p.N,
		GeoSpeedup: p.GeoSpeedup, MedianSpeedup: p.MedianSpeedup, SpeedupCI: [2]float64{p.SpeedupLo, p.SpeedupHi},
		ChangePct: p.ChangePct, ChangeCI: [2]float64{p.ChangeLo, p.ChangeHi}, MeanDiffNS: p.MeanDiff,
		ConfidencePct: opt.Confidence, ThresholdPct: opt.ThresholdPct, Verdict: p.Verdict.String(),
		OrderEffectPct: p.OrderEffectPct, ReferenceFirst: p.RefFirst, ContenderFirst: p.ConFirst,
		Lag1: p.Lag1, BlockLen: p.BlockLen,
		ContenderWins: p.ContenderWins, ReferenceWins: p.ReferenceWins, Ties: p.Ties,
	}
	rec.Warnings = d.comparisonWarnings(rec)
	if len(d.run.Axes) > 0 {
		rec.Axes = d.axisComparisons(c, p, opt)
	}
	return rec, nil
}

// pairs joins case c's samples with the reference samples of the same unit.
func (d *runData) pairs(c int) stats.PairedInput {
	ref := d.refByUnit()
	n := min(len(d.cases[0]), len(d.cases[c]))
	in := stats.PairedInput{Ref: make([]float64, 0, n), Con: make([]float64, 0, n), RefFirst: make([]bool, 0, n)}
	for _, p := range d.cases[c] {
		r, ok := ref(int(p.unit))
		if !ok {
			continue
		}
		in.Ref = append(in.Ref, r.op)
		in.Con = append(in.Con, p.op)
		in.RefFirst = append(in.RefFirst, r.pos < p.pos)
	}
	return in
}

// refByUnit indexes the reference samples by unit. Units are dense small
// integers, so a slice does (a unit seen twice keeps its last sample).
func (d *runData) refByUnit() func(unit int) (point, bool) {
	top := -1
	for _, p := range d.cases[0] {
		top = max(top, int(p.unit))
	}
	at := make([]int32, top+1)
	for i := range at {
		at[i] = -1
	}
	for i, p := range d.cases[0] {
		if p.unit >= 0 {
			at[p.unit] = int32(i)
		}
	}
	return func(unit int) (point, bool) {
		if unit < 0 || unit >= len(at) || at[unit] < 0 {
			return point{}, false
		}
		return d.cases[0][at[unit]], true
	}
}

func (d *runData) comparisonWarnings(c *ndjson.Comparison) []string {
	var w []string
	if c.Design == ndjson.DesignSequential {
		w = append(w, "sequential blocks are exposed to drift between cases; compared as independent samples, not pairs")
	}
	if c.Pairs < 10 {
		w = append(w, fmt.Sprintf("only %d pairs: the interval is fragile", c.Pairs))
	}
	if gap := c.ReferenceFirst - c.ContenderFirst; c.Design == ndjson.DesignPaired && (gap > 1 || gap < -1) {
		w = append(w, fmt.Sprintf("order counts unbalanced (%d reference-first, %d contender-first): the run stopped early", c.ReferenceFirst, c.ContenderFirst))
	}
	return w
}
