package analyze

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// singleRun is a one-case run of n samples of iter operations each; the
// sample in unit u takes 1000+u ns per operation.
func singleRun(n int, iter int64) *runData {
	d := newRunData(ndjson.Run{RunID: "t", Design: ndjson.DesignSingle, Cases: []ndjson.Case{{Name: "x"}}}, nil)
	for u := range n {
		op := float64(1000 + u)
		if err := d.add(ndjson.Sample{Case: 0, Unit: u, Iter: iter, WallNS: int64(op) * iter, OpNS: op}); err != nil {
			panic(err)
		}
	}
	return d
}

func TestTailViewNeedsSingleOperations(t *testing.T) {
	got := singleRun(200, 1).tail(0)
	// Type-7 percentiles of 1000..1199: p50 = 1099.5, p90 = 1179.1, p95 = 1189.05, p99 = 1197.01.
	want := ndjson.Tail{Status: ndjson.TailOK, Observations: 200, P50: 1099.5, P90: 1179.1, P95: 1189.05, P99: 1197.01}
	if d := *got; d.Status != want.Status || d.Observations != want.Observations ||
		!near(d.P50, want.P50) || !near(d.P90, want.P90) || !near(d.P95, want.P95) || !near(d.P99, want.P99) {
		t.Errorf("tail = %+v, want %+v", d, want)
	}
	few := singleRun(99, 1).tail(0)
	if few.Status != ndjson.TailInsufficient || few.P95 != 0 || !strings.Contains(few.Reason, "99 single-operation samples; a tail view needs at least 100") {
		t.Errorf("99 samples: %+v", few)
	}
	batched := singleRun(500, 8).tail(0)
	if batched.Status != ndjson.TailInsufficient || batched.Observations != 0 || !strings.Contains(batched.Reason, "500 of 500 samples timed more than one operation") {
		t.Errorf("batches: %+v", batched)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
