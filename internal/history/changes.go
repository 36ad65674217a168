package history

import (
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
			MinSize: opt.MinSize, Seed: opt.Seed}
		s.Changes = nil
		for _, c := range changepoint.Detect(x, opt) {
			before, after := s.Points[c.Index-1], s.Points[c.Index]
			ch := ndjson.SeriesChange{Index: c.Index, BeforeRun: before.RunID, AfterRun: after.RunID,
				BeforeRevision: before.Revision, AfterRevision: after.Revision, Before: c.Before, After: c.After, P: c.P}
			if c.Before != 0 {
				ch.ChangePct = (c.After/c.Before - 1) * 100
			}
			s.Changes = append(s.Changes, ch)
		}
	}
}
