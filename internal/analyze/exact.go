package analyze

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// Deterministic axes: custom axes declared with comparison "exact", whose
// value must be the same in every sample of a side, and counter axes
// (instructions_sim), counted outside the timed schedule and carried by
// counter records. Either is compared by the exact difference of the two
// sides' values, with no interval: there is no noise to estimate.

// exactResult compares two sides' values of a deterministic axis: the
// change is the contender's median minus the reference's. With every
// value of each side equal the verdict is the sign of the change. When a
// side's values differ (a simulated count of a program whose runtime has
// background threads varies by a fraction of a percent), the sides still
// differ exactly when their ranges do not overlap; overlapping ranges
// are "not deterministic": no difference beyond the spread can be told.
// Values are compared exactly: a count divided by its operations is the
// correctly rounded quotient, so equal counts per operation are equal.
func exactResult(ref, con []float64) *ndjson.AxisResult {
	rm, cm := stats.Median(ref), stats.Median(con)
	change := cm - rm
	verdict := ndjson.VerdictExactSame
	varies := spread(ref) != 0 || spread(con) != 0
	switch {
	case varies && slices.Min(con) > slices.Max(ref):
		verdict = ndjson.VerdictExactIncreased
	case varies && slices.Max(con) < slices.Min(ref):
		verdict = ndjson.VerdictExactDecreased
	case varies:
		verdict = ndjson.VerdictExactVaries
	case change > 0:
		verdict = ndjson.VerdictExactIncreased
	case change < 0:
		verdict = ndjson.VerdictExactDecreased
	}
	return &ndjson.AxisResult{Method: ndjson.AxisMethodExact, N: min(len(ref), len(con)), RefMedian: rm, ConMedian: cm,
		Change: change, CI: [2]float64{change, change}, Verdict: verdict}
}

// spread is the largest value minus the smallest, 0 for one value.
func spread(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	return slices.Max(x) - slices.Min(x)
}

// exact reports whether a run's axis is a custom axis declared exact.
func exact(info ndjson.AxisInfo) bool { return info.Comparison == string(custom.Exact) }

// exactComparison compares custom axis i of case c with the reference,
// every sample of each side; both sides have a value in every sample.
func (d *runData) exactComparison(cmp ndjson.AxisComparison, c, i int) ndjson.AxisComparison {
	ref, _ := d.column(0, i)
	con, _ := d.column(c, i)
	cmp.Available, cmp.Status = true, string(axes.Collected)
	cmp.Result = exactResult(ref, con)
	return cmp
}

// counterAxes are the run's counter axes, in the run record's order.
func counterAxes(run ndjson.Run) []ndjson.AxisInfo {
	var out []ndjson.AxisInfo
	for _, a := range run.Axes {
		if axes.IsCounter(a.Family) {
			out = append(out, a)
		}
	}
	return out
}

// counterValues are the counts of axis info for case c, or its status and
// reason when there are none: the counter record's, or the run record's
// when the case has no counter record.
func (d *runData) counterValues(c int, info ndjson.AxisInfo) ([]float64, axes.Status, string) {
	var rec *ndjson.Counter
	for i := range d.counters {
		if k := &d.counters[i]; k.Case == c && k.Axis == info.Name {
			rec = k
		}
	}
	switch {
	case rec == nil && axes.Status(info.Status) != axes.Collected:
		return nil, axes.Status(info.Status), info.Reason
	case rec == nil:
		return nil, axes.ProbeFailed, "no counter record for this case (the run stopped before counting it?)"
	case axes.Status(rec.Status) != axes.Collected:
		return nil, axes.Status(rec.Status), rec.Reason
	case len(rec.Values) > 0:
		return rec.Values, axes.Collected, ""
	}
	return []float64{*rec.Value}, axes.Collected, ""
}

// counterSummaries describe case c's counts: N is the number of counts,
// the statistics are theirs, and the mean's "interval" is their range
// (no interval is estimated from counts).
func (d *runData) counterSummaries(c int) []ndjson.AxisSummary {
	var out []ndjson.AxisSummary
	for _, info := range counterAxes(d.run) {
		vals, st, reason := d.counterValues(c, info)
		s := ndjson.AxisSummary{Name: info.Name, Unit: info.Unit, Status: string(st), Reason: reason, N: len(vals)}
		if len(vals) > 0 {
			x := stats.Summarize(vals)
			s.Stats = &ndjson.AxisStats{Min: x.Min, Median: x.Median, Mean: x.Mean, P95: x.P95, P99: x.P99, Max: x.Max,
				MeanCI: [2]float64{x.Min, x.Max}}
		}
		out = append(out, s)
	}
	return out
}

// counterComparisons compare case c's counts with the reference's.
func (d *runData) counterComparisons(c int) []ndjson.AxisComparison {
	var out []ndjson.AxisComparison
	for _, info := range counterAxes(d.run) {
		out = append(out, d.counterComparison(c, info))
	}
	return out
}

func (d *runData) counterComparison(c int, info ndjson.AxisInfo) ndjson.AxisComparison {
	cmp := comparisonHead(info)
	ref, st, reason := d.counterValues(0, info)
	side := 0
	if st == axes.Collected {
		var con []float64
		con, st, reason = d.counterValues(c, info)
		side = c
		if st == axes.Collected {
			cmp.Available, cmp.Status = true, string(axes.Collected)
			cmp.Result = exactResult(ref, con)
			return cmp
		}
	}
	cmp.Status, cmp.Reason = string(st), fmt.Sprintf("%s: %s", d.name(side), orText(reason, st))
	return cmp
}

// exactWarnings name every deterministic axis whose values vary within a
// side of comparison c, with both sides' spreads.
func (d *runData) exactWarnings(c int) []string {
	var w []string
	for i, info := range d.extra {
		if !exact(info) {
			continue
		}
		ref, _ := d.column(0, i)
		con, _ := d.column(c, i)
		w = append(w, d.variesWarning(c, info, ref, con)...)
	}
	for _, info := range counterAxes(d.run) {
		ref, st0, _ := d.counterValues(0, info)
		con, st1, _ := d.counterValues(c, info)
		if st0 == axes.Collected && st1 == axes.Collected {
			w = append(w, d.variesWarning(c, info, ref, con)...)
		}
	}
	return w
}

func (d *runData) variesWarning(c int, info ndjson.AxisInfo, ref, con []float64) []string {
	if len(ref) == 0 || len(con) == 0 || spread(ref) == 0 && spread(con) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("%s is compared exactly but its values vary within a side: %s spread %g %s over %d values, %s spread %g %s over %d values; the count is not deterministic, so a difference is told only when the two sides' ranges do not overlap",
		info.Name, d.name(0), spread(ref), info.Unit, len(ref), d.name(c), spread(con), info.Unit, len(con))}
}
