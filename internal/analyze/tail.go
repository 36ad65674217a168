package analyze

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// tail is the tail-latency view of case c (its evidence minimum):
// percentiles of individual operations when every sample timed exactly
// one operation and there are at least ndjson.MinTailObservations of
// them; otherwise the view says why there is not enough evidence.
func (d *runData) tail(c int) *ndjson.Tail {
	pts := d.cases[c]
	t := &ndjson.Tail{Observations: len(pts)}
	batched := 0
	for _, p := range pts {
		if p.iter != 1 {
			batched++
		}
	}
	switch {
	case batched > 0:
		t.Status = ndjson.TailInsufficient
		t.Reason = fmt.Sprintf("%d of %d samples timed more than one operation: their percentiles are of batch means, which hide the variation between operations; collect with %s 1 and at least %d samples", batched, len(pts), d.names.Spell(pairMaxIterations), ndjson.MinTailObservations)
		t.Observations = len(pts) - batched
	case len(pts) < ndjson.MinTailObservations:
		t.Status = ndjson.TailInsufficient
		t.Reason = fmt.Sprintf("%d single-operation samples; a tail view needs at least %d (with 100, about five lie beyond the p95)", len(pts), ndjson.MinTailObservations)
	default:
		x := d.ops(c)
		slices.Sort(x)
		t.Status = ndjson.TailOK
		t.P50, t.P90, t.P95, t.P99 = stats.Percentile(x, 50), stats.Percentile(x, 90), stats.Percentile(x, 95), stats.Percentile(x, 99)
	}
	return t
}
