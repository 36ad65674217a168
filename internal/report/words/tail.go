package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Tails is a card's tails row: the tail-latency view's percentiles of
// single operations when the analysis has one, else the summary's
// percentiles of batch means, saying that they are not a tail view.
func Tails(s *ndjson.Summary) string {
	if t := s.Tail; t != nil && t.Status == ndjson.TailOK {
		return fmt.Sprintf("p50 %s  p90 %s  p95 %s  p99 %s  range %s  (%d single operations)",
			model.Dur(t.P50), model.Dur(t.P90), model.Dur(t.P95), model.Dur(t.P99), model.DurRange(s.Min, s.Max), t.Observations)
	}
	text := fmt.Sprintf("p95 %s  p99 %s  range %s  (percentiles of batch means", model.Dur(s.P95), model.Dur(s.P99), model.DurRange(s.Min, s.Max))
	if s.Tail != nil {
		return text + "; no tail view: " + tailShortReason(s) + ")"
	}
	return text + ")"
}

// tailShortReason says in a few words why a case has no tail view.
func tailShortReason(s *ndjson.Summary) string {
	if s.Tail.Observations < s.N {
		return fmt.Sprintf("samples of %d operations", s.Iterations)
	}
	return fmt.Sprintf("%d of %d single operations", s.Tail.Observations, ndjson.MinTailObservations)
}
