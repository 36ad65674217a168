package csv

import (
	"strconv"

	"github.com/flybench/flybench/pkg/ndjson"
)

// setTail fills the tail-view columns of a summary row.
func (row csvRow) setTail(s *ndjson.Summary) {
	t := s.Tail
	if t == nil {
		return
	}
	row.set("tail_status", t.Status)
	row.set("tail_observations", strconv.Itoa(t.Observations))
	if t.Status == ndjson.TailOK {
		row.setFloats(map[string]float64{"tail_p50": t.P50, "tail_p90": t.P90, "tail_p95": t.P95, "tail_p99": t.P99})
	}
}
