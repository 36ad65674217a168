package history

import (
	"math"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/pkg/ndjson"
)

// MarkChanges finds each series' level shifts among the points it shows
// and records them with the detector's settings: the steps, and the
// gradual drifts told apart from them (changepoint.Drifts).
func MarkChanges(all []ndjson.Series, opt changepoint.Options) {
	for i := range all {
		x := values(all[i])
		markSeries(&all[i], x, changepoint.Segment(x, opt), opt)
	}
}

// values are a series' points' values.
func values(s ndjson.Series) []float64 {
	x := make([]float64, len(s.Points))
	for j, p := range s.Points {
		x[j] = p.Value
	}
	return x
}

// markSeries records seg, the change points of s's values x found at
// opt, in s: the detector's settings, the steps, and the drifts.
func markSeries(s *ndjson.Series, x []float64, seg changepoint.Segmentation, opt changepoint.Options) {
	s.Detection = &ndjson.Detection{Method: "e-divisive means", Level: opt.Level, Permutations: opt.Permutations,
		MinSize: opt.MinSize, Window: opt.Window, ConfidencePct: changepoint.ConfidencePct, Seed: opt.Seed}
	s.Changes, s.Drifts = nil, nil
	drifts, steps := changepoint.Drifts(x, seg.Changes)
	for _, c := range steps {
		s.Changes = append(s.Changes, seriesChange(s.Points, c))
	}
	for _, d := range drifts {
		s.Drifts = append(s.Drifts, seriesDrift(s.Points, d))
	}
}

// seriesDrift is a drift as a series record carries it.
func seriesDrift(points []ndjson.SeriesPoint, d changepoint.Drift) ndjson.SeriesDrift {
	first, last := points[d.From], points[d.To-1]
	sd := ndjson.SeriesDrift{From: d.From, To: d.To - 1, FromRun: first.RunID, ToRun: last.RunID,
		FromRevision: first.Revision, ToRevision: last.Revision, Start: d.Start, End: d.End, Changes: d.Changes}
	if d.Start != 0 {
		sd.ChangePct = (d.End/d.Start - 1) * 100
	}
	return sd
}

// seriesChange is a change point as a series record carries it.
func seriesChange(points []ndjson.SeriesPoint, c changepoint.Change) ndjson.SeriesChange {
	before, after := points[c.Index-1], points[c.Index]
	ch := ndjson.SeriesChange{Index: c.Index, BeforeRun: before.RunID, AfterRun: after.RunID,
		BeforeRevision: before.Revision, AfterRevision: after.Revision, Before: c.Before, After: c.After, P: c.P}
	if c.Before != 0 {
		ch.ChangePct = (c.After/c.Before - 1) * 100
	}
	if !math.IsNaN(c.CI[0]) && !math.IsNaN(c.CI[1]) {
		ch.ChangeCI = &[2]float64{c.CI[0], c.CI[1]}
	}
	if from, to := c.Range[0], c.Range[1]; from >= 1 && from <= c.Index && c.Index <= to && to < len(points) {
		first, last := points[from-1], points[to]
		ch.Range = &ndjson.ChangeRange{From: from, To: to, BeforeRun: first.RunID, AfterRun: last.RunID,
			BeforeRevision: first.Revision, AfterRevision: last.Revision}
	}
	return ch
}
