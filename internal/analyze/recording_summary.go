package analyze

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// spanSide is one benchmark of one recording as the comparisons need it:
// the wall times of the spans that pass the outcome filter, sorted,
// whether every one of them has a wall time, and the bootstrap replicates
// of ComparedPercentiles (nil for a percentile without enough spans).
type spanSide struct {
	run, name  string
	n, missing int
	sorted     []float64
	reps       [][]float64
}

// analyze summarizes every benchmark of the recording: the span_summary
// records in benchmark order, and the sides the comparisons use.
func (d *recData) analyze(end *ndjson.RecordingEnd, opt Options) ([]*ndjson.SpanSummary, []*spanSide) {
	sums := make([]*ndjson.SpanSummary, len(d.spans))
	sides := make([]*spanSide, len(d.spans))
	for b := range d.spans {
		sums[b], sides[b] = d.summarize(b, end, opt)
	}
	return sums, sides
}

// summarize is the span summary of benchmark b over the spans that pass
// the outcome filter: the same rows for wall time and every axis.
func (d *recData) summarize(b int, end *ndjson.RecordingEnd, opt Options) (*ndjson.SpanSummary, *spanSide) {
	rows := d.filtered(b, opt.outcome())
	s := &ndjson.SpanSummary{RunID: d.rec.RunID, Benchmark: b, Name: d.rec.Benchmarks[b].Name,
		SampleSemantics: ndjson.SampleSemanticsIndividualSpan, Outcome: opt.outcome(), N: len(rows),
		RetainedOutcomes: d.retainedOutcomes(b), ConfidencePct: opt.Confidence}
	if t := tallyOf(end, b); t != nil {
		s.Tally, s.Outcomes = t, t.Outcomes
	}
	walls, inOrder, missing := wallColumn(rows)
	side := &spanSide{run: d.rec.RunID, name: s.Name, n: len(rows), missing: missing, sorted: walls}
	s.Warnings = d.spanWarnings(b, end, len(rows), missing, opt)
	wall := wallInfo(ndjson.Run{Axes: d.rec.Axes})
	st, reason := columnStatus(len(walls), missing, wall, "have no wall_ns")
	s.WallStatus = string(st)
	if len(walls) > 0 {
		reps := percentileReplicates(walls, SpanPercentiles, opt.Resamples, opt.Seed, d.label(b, opt.outcome()))
		s.Wall = spanStats(walls, reps, opt.Confidence)
		side.reps = reps[:len(ComparedPercentiles)]
	}
	s.Axes = append([]ndjson.AxisSummary{{Name: wall.Name, Unit: wall.Unit, Status: string(st), Reason: reason,
		N: len(walls), Missing: missing, Stats: nonEmptyStats(inOrder, opt, fmt.Sprintf("span/axis/wall/%s", d.label(b, opt.outcome())))}},
		d.axisSummaries(b, rows, opt)...)
	return s, side
}

// filtered is benchmark b's spans with the outcome, or all of them.
func (d *recData) filtered(b int, outcome string) []spanRow {
	if outcome == OutcomeAll {
		return d.spans[b]
	}
	var rows []spanRow
	for _, r := range d.spans[b] {
		if r.outcome == outcome {
			rows = append(rows, r)
		}
	}
	return rows
}

// retainedOutcomes counts the outcomes of benchmark b's retained spans.
func (d *recData) retainedOutcomes(b int) map[string]int64 {
	out := map[string]int64{}
	for _, r := range d.spans[b] {
		out[r.outcome]++
	}
	return out
}

// tallyOf is benchmark b's tally in the recording_end record, or nil.
func tallyOf(end *ndjson.RecordingEnd, b int) *ndjson.BenchmarkTally {
	if end == nil {
		return nil
	}
	for i := range end.Benchmarks {
		if end.Benchmarks[i].Index == b {
			return &end.Benchmarks[i]
		}
	}
	return nil
}

// wallColumn is the wall times of rows sorted and in stream order, and
// how many rows lack one.
func wallColumn(rows []spanRow) (sorted, inOrder []float64, missing int) {
	for _, r := range rows {
		if r.hasWall {
			inOrder = append(inOrder, float64(r.wall))
		} else {
			missing++
		}
	}
	return slices.Sorted(slices.Values(inOrder)), inOrder, missing
}

// spanStats are the mean and percentiles of sorted wall times, each
// percentile with the interval of its replicates, or "insufficient
// evidence" by the evidence rule.
func spanStats(sorted []float64, reps [][]float64, conf float64) *ndjson.SpanStats {
	st := &ndjson.SpanStats{Mean: stats.Mean(sorted)}
	for i, p := range SpanPercentiles {
		sp := ndjson.SpanPercentile{P: p, Status: PercentileInsufficient}
		if enoughSpans(len(sorted), p) {
			ci := percentileInterval(reps[i], conf)
			sp.Status, sp.Value, sp.CI = PercentileOK, stats.Percentile(sorted, p), &ci
		}
		st.Percentiles = append(st.Percentiles, sp)
	}
	return st
}

// nonEmptyStats summarizes x, or is nil for no values.
func nonEmptyStats(x []float64, opt Options, stream string) *ndjson.AxisStats {
	if len(x) == 0 {
		return nil
	}
	return axisStats(x, opt, stream)
}

// axisSummaries describes every axis besides wall time over rows.
func (d *recData) axisSummaries(b int, rows []spanRow, opt Options) []ndjson.AxisSummary {
	var out []ndjson.AxisSummary
	for i, info := range d.extra {
		col := make([]axisVal, len(rows))
		for j, r := range rows {
			col[j] = r.vals[i]
		}
		var vals []float64
		for _, v := range col {
			if v.st == axes.Collected {
				vals = append(vals, v.v)
			}
		}
		missing := len(col) - len(vals)
		st, reason := columnStatus(len(vals), missing, info, "have no value")
		if st != axes.Collected && len(vals) == 0 && missing > 0 {
			st, reason = dominantStatus(col), firstReason(col, info)
		} else if st == axes.PartiallyCollected {
			reason += ": " + firstReason(col, info)
		}
		out = append(out, ndjson.AxisSummary{Name: info.Name, Unit: info.Unit, Status: string(st), Reason: reason,
			N: len(vals), Missing: missing, Stats: nonEmptyStats(vals, opt, fmt.Sprintf("span/axis/%s/%s", info.Name, d.label(b, opt.outcome())))})
	}
	return out
}

// columnStatus is the status of a column of spans with n values and
// missing without: collected, partially_collected with a count, or, with
// no span at all, the axis's own status.
func columnStatus(n, missing int, info ndjson.AxisInfo, lack string) (axes.Status, string) {
	switch {
	case missing == 0 && n > 0:
		return axes.Collected, ""
	case n > 0:
		return axes.PartiallyCollected, fmt.Sprintf("%d of %d spans %s", missing, n+missing, lack)
	case missing == 0:
		return axes.Status(info.Status), info.Reason
	}
	return axes.ProbeFailed, fmt.Sprintf("all %d spans %s", missing, lack)
}

// dominantStatus is the most frequent unavailable status of a column.
func dominantStatus(col []axisVal) axes.Status {
	count := map[axes.Status]int{}
	best := axes.ProbeFailed
	for _, v := range col {
		count[v.st]++
		if count[v.st] > count[best] || count[v.st] == count[best] && v.st < best {
			best = v.st
		}
	}
	return best
}

// firstReason explains the first span of a column without a value.
func firstReason(col []axisVal, info ndjson.AxisInfo) string {
	for _, v := range col {
		if v.st == axes.Collected {
			continue
		}
		reason := v.r
		if reason == "" {
			reason = info.Reason
		}
		if reason == "" {
			return v.st.Text()
		}
		return v.st.Text() + ": " + reason
	}
	return ""
}

// spanWarnings say what the summary of benchmark b rests on when it is
// less than every span: a recording cut short, spans the filter or the
// retention policy left out, spans without wall time, notes on the input.
func (d *recData) spanWarnings(b int, end *ndjson.RecordingEnd, n, missing int, opt Options) []string {
	var w []string
	if end == nil {
		w = append(w, fmt.Sprintf("the recording was cut short (no recording_end record): the outcome counts of all observed spans are unknown; summarizing the %d retained spans present", len(d.spans[b])))
	}
	if opt.outcome() != OutcomeAll {
		w = append(w, fmt.Sprintf("%s %s: %d of %d retained spans summarized", opt.Names.Spell(FieldOutcome), opt.outcome(), n, len(d.spans[b])))
	}
	if missing > 0 {
		w = append(w, fmt.Sprintf("wall time is incomplete: %d of %d spans have no wall_ns; the percentiles describe the %d that have one", missing, n, n-missing))
	}
	if t := tallyOf(end, b); t != nil && t.Omitted > 0 {
		w = append(w, fmt.Sprintf("retention %s kept %d of %d observed spans (%d omitted)", d.rec.Retention.Policy, t.Retained, t.Observed, t.Omitted))
	}
	if t := tallyOf(end, b); t != nil && t.Unfinished > 0 {
		w = append(w, fmt.Sprintf("%d of the observed spans never finished", t.Unfinished))
	}
	if l := losses(end); l != "" {
		w = append(w, l)
	}
	return append(w, d.notes...)
}

// losses says what fb-record counted and did not record: connections it
// refused or shed and spans it discarded, which no benchmark's tally
// holds, and axes it dropped; "" when nothing.
func losses(end *ndjson.RecordingEnd) string {
	if end == nil || end.RefusedConnections == 0 && end.ShedConnections == 0 && end.DiscardedSpans == 0 && end.DroppedAxes == 0 {
		return ""
	}
	dropped := fmt.Sprintf("%d undeclared axis values", end.DroppedAxes)
	if end.RefusedConnections == 0 && end.ShedConnections == 0 && end.DiscardedSpans == 0 {
		return "fb-record dropped " + dropped
	}
	s := fmt.Sprintf("fb-record refused %d connections, shed %d and discarded %d spans that arrived after a connection's fault: their spans are in no tally",
		end.RefusedConnections, end.ShedConnections, end.DiscardedSpans)
	if end.DroppedAxes > 0 {
		s += "; it dropped " + dropped
	}
	return s
}
