package history

import (
	"math"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/pkg/ndjson"
)

// MarkChanges finds each series' level shifts among the points it shows
// and records them with the detector's settings.
func MarkChanges(all []ndjson.Series, opt changepoint.Options) {
	for i := range all {
		s := &all[i]
		x := make([]float64, len(s.Points))
		for j, p := range s.Points {
			x[j] = p.Value
		}
		s.Detection = &ndjson.Detection{Method: "e-divisive means", Level: opt.Level, Permutations: opt.Permutations,
			MinSize: opt.MinSize, Window: opt.Window, ConfidencePct: changepoint.ConfidencePct, Seed: opt.Seed}
		s.Changes = nil
		for _, c := range changepoint.Detect(x, opt) {
			s.Changes = append(s.Changes, seriesChange(s.Points, c))
		}
	}
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
	return ch
}
