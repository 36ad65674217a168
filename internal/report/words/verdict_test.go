package words

import (
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TestVerdictInsufficient: a comparison whose interval is not a valid one
// reads "insufficient evidence", whatever its verdict field; with a valid
// one the winner is named.
func TestVerdictInsufficient(t *testing.T) {
	r := &model.Run{}
	k := &ndjson.Comparison{ReferenceName: "old", ContenderName: "new", Verdict: ndjson.VerdictContenderFaster,
		Interval: &ndjson.IntervalChoice{Method: ndjson.IntervalBlocks, Status: ndjson.IntervalOK}}
	if got := Verdict(r, k); got != "new faster" {
		t.Errorf("valid interval: %q", got)
	}
	k.Verdict, k.Interval.Status = ndjson.VerdictInconclusive, ndjson.IntervalInsufficient
	if got := Verdict(r, k); got != "insufficient evidence" || !Insufficient(k) {
		t.Errorf("insufficient: %q", got)
	}
	k.Interval = nil
	if got := Verdict(r, k); got != "inconclusive" || Insufficient(k) {
		t.Errorf("no interval record (schema 1.6 and earlier): %q", got)
	}
}
