package model

import (
	"math"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// SummaryAxes are a summary's axes. A stream written before axes were
// recorded has none; its wall-time axis is then restated from the timing
// fields, so every run has at least a wall row.
func SummaryAxes(s *ndjson.Summary) []ndjson.AxisSummary {
	if len(s.Axes) > 0 {
		return s.Axes
	}
	w, _ := axes.Lookup(axes.Wall)
	return []ndjson.AxisSummary{{Name: w.Name, Unit: w.Unit, Status: string(axes.Collected), N: s.N,
		Stats: &ndjson.AxisStats{Min: s.Min, Median: s.Median, Mean: s.Mean, P95: s.P95, P99: s.P99,
			Max: s.Max, MeanCI: s.MeanCI}}}
}

// ComparisonAxes are a comparison's axes, or its wall-time axis restated
// from the timing fields for a stream written before axes were recorded.
// A median the stream does not hold is NaN and prints as an empty cell.
func ComparisonAxes(r *Run, k *ndjson.Comparison) []ndjson.AxisComparison {
	if len(k.Axes) > 0 {
		return k.Axes
	}
	w, _ := axes.Lookup(axes.Wall)
	return []ndjson.AxisComparison{{Name: w.Name, Unit: w.Unit, Direction: string(w.Direction),
		Scope: w.Scope, Attribution: w.Attribution, Available: true, Status: string(axes.Collected),
		Result: &ndjson.AxisResult{Method: ndjson.AxisMethodRelative, N: k.Pairs,
			RefMedian: median(r.Summary(k.Reference)), ConMedian: median(r.Summary(k.Contender)),
			Change: k.ChangePct, CI: k.ChangeCI, BlockLen: k.BlockLen, Verdict: wallAxisVerdict(k.Verdict)}}}
}

func median(s *ndjson.Summary) float64 {
	if s == nil {
		return math.NaN()
	}
	return s.Median
}

// wallAxisVerdict restates a timing verdict in the words of an axis
// verdict, as fb-analyze does for the wall-time axis.
func wallAxisVerdict(v ndjson.Verdict) string {
	switch v {
	case ndjson.VerdictContenderFaster:
		return AxisContenderBetter
	case ndjson.VerdictReferenceFaster:
		return AxisReferenceBetter
	}
	return string(v)
}

// SummaryStatus is an axis summary's status; a record that leaves it
// empty is collected only when it has statistics and no sample lacks one.
func SummaryStatus(a *ndjson.AxisSummary) string {
	if a.Status == "" && a.Stats != nil && a.N > 0 && a.Missing == 0 {
		return string(axes.Collected)
	}
	return a.Status
}

// ComparisonStatus is an axis comparison's status; a record that leaves it
// empty is collected only when it is marked available and has a result.
func ComparisonStatus(a *ndjson.AxisComparison) string {
	if a.Status == "" && a.Available && a.Result != nil {
		return string(axes.Collected)
	}
	return a.Status
}
