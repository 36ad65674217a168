package analyze

import (
	"fmt"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// axisComparisons compares every axis of case c with the reference on the
// same pairs as wall time, wall time first (taken from the timing
// comparison itself, so the two never disagree).
func (d *runData) axisComparisons(c int, p stats.Paired, opt Options) []ndjson.AxisComparison {
	wall := wallInfo(d.run)
	out := []ndjson.AxisComparison{d.wallComparison(wall, c, p)}
	for i, info := range d.extra {
		out = append(out, d.axisComparison(c, i, info, opt.forAxis(info)))
	}
	return append(out, d.counterComparisons(c)...)
}

func (d *runData) wallComparison(info ndjson.AxisInfo, c int, p stats.Paired) ndjson.AxisComparison {
	cmp := comparisonHead(info)
	cmp.Available, cmp.Status = true, string(axes.Collected)
	cmp.Result = &ndjson.AxisResult{
		Method: stats.RelativeRatio.String(), N: p.N, RefMedian: stats.Median(d.ops(0)), ConMedian: stats.Median(d.ops(c)),
		Change: p.ChangePct, CI: [2]float64{p.ChangeLo, p.ChangeHi}, BlockLen: p.BlockLen, Verdict: wallVerdict(p.Verdict),
	}
	return cmp
}

// wallVerdict restates a timing verdict in the words of an axis verdict.
func wallVerdict(v stats.Verdict) string {
	switch v {
	case stats.ContenderFaster:
		return stats.ContenderBetter.String()
	case stats.ReferenceFaster:
		return stats.ReferenceBetter.String()
	case stats.Equivalent:
		return stats.AxisEquivalent.String()
	}
	return stats.AxisInconclusive.String()
}

func comparisonHead(info ndjson.AxisInfo) ndjson.AxisComparison {
	return ndjson.AxisComparison{Name: info.Name, Unit: info.Unit, Direction: info.Direction, Scope: info.Scope, Attribution: info.Attribution}
}

// axisComparison compares axis i of case c with the reference. Both sides
// must have a value in every sample; otherwise the comparison is
// unavailable and carries the first side's reason.
func (d *runData) axisComparison(c, i int, info ndjson.AxisInfo, opt Options) ndjson.AxisComparison {
	cmp := comparisonHead(info)
	for _, side := range []int{0, c} {
		if st, reason := d.status(side, i, info); st != axes.Collected {
			cmp.Status, cmp.Reason = string(st), fmt.Sprintf("%s: %s", d.name(side), orText(reason, st))
			return cmp
		}
	}
	if exact(info) {
		return d.exactComparison(cmp, c, i)
	}
	ref, con, first := d.axisPairs(c, i)
	res, err := d.compareAxis(ref, con, first, info, opt, fmt.Sprintf("axis/%s/0/%d", info.Name, c))
	if err != nil {
		cmp.Status, cmp.Reason = string(axes.ProbeFailed), err.Error()
		if info.Comparison == "relative" {
			cmp.Status = string(axes.InvalidValue)
		}
		return cmp
	}
	cmp.Available, cmp.Status = true, string(axes.Collected)
	cmp.Result = &ndjson.AxisResult{
		Method: res.Method.String(), N: res.N, RefMedian: res.RefMedian, ConMedian: res.ConMedian,
		Change: res.Change, CI: [2]float64{res.Lo, res.Hi}, BlockLen: res.BlockLen, Verdict: res.Verdict.String(),
		Rejected: res.Rejected,
	}
	return cmp
}

func orText(reason string, st axes.Status) string {
	if reason == "" {
		return st.Text()
	}
	return reason
}

// compareAxis picks the paired or, for sequential blocks, the independent
// comparison.
func (d *runData) compareAxis(ref, con []float64, first []bool, info ndjson.AxisInfo, opt Options, stream string) (stats.AxisComparison, error) {
	dir := direction(info.Direction)
	if d.run.Design == ndjson.DesignSequential {
		return stats.CompareAxisIndependent(ref, con, dir, opt.bootstrap(), opt.ThresholdPct, stream)
	}
	switch info.Comparison { // declared by a custom axis; built-in axes choose by their values
	case "relative":
		return stats.CompareAxisMethod(ref, con, first, stats.RelativeRatio, dir, opt.bootstrap(), opt.ThresholdPct, stream)
	case "absolute":
		return stats.CompareAxisMethod(ref, con, first, stats.AbsoluteDifference, dir, opt.bootstrap(), opt.ThresholdPct, stream)
	}
	return stats.CompareAxis(ref, con, first, dir, opt.bootstrap(), opt.ThresholdPct, stream)
}

func direction(s string) stats.Direction {
	switch axes.Direction(s) {
	case axes.HigherIsBetter:
		return stats.HigherIsBetter
	case axes.Diagnostic:
		return stats.Diagnostic
	}
	return stats.LowerIsBetter
}

// axisPairs joins axis i of case c with the reference sample of the same
// unit, and says for each pair whether the reference ran first;
// sequential designs have no units in common and keep each side whole.
func (d *runData) axisPairs(c, i int) (ref, con []float64, refFirst []bool) {
	if d.run.Design == ndjson.DesignSequential {
		r, _ := d.column(0, i)
		k, _ := d.column(c, i)
		return r, k, nil
	}
	byUnit := d.refByUnit()
	for _, p := range d.cases[c] {
		if r, ok := byUnit(int(p.unit)); ok {
			ref = append(ref, d.val(r, i).v)
			con = append(con, d.val(p, i).v)
			refFirst = append(refFirst, r.pos < p.pos)
		}
	}
	return ref, con, refFirst
}
