package runs

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

const (
	runCounted = `{"type":"run","v":"1.4","run_id":"r1","cases":[{"index":0,"name":"a"},{"index":1,"name":"b"}],"axes":[{"name":"wall"},{"name":"instructions_sim","family":"simulated"}]}`
	counter    = `{"type":"counter","v":"1.4","run_id":"r1","case":1,"axis":"instructions_sim","status":"collected","value":5,"values":[5,5,5]}`
)

// TestCounterPlacement: a counter record belongs to the open run.
func TestCounterPlacement(t *testing.T) {
	recs, err := read(runCounted, counter, sample, end1)
	if err != nil {
		t.Fatal(err)
	}
	k, ok := recs[1].Value.(*ndjson.Counter)
	if recs[1].Run != recs[0].Run || !ok || k.Case != 1 || *k.Value != 5 || len(k.Values) != 3 {
		t.Fatalf("counter %+v in run %v", recs[1].Value, recs[1].Run)
	}
}

func TestCounterRefusals(t *testing.T) {
	for rec, want := range map[string]string{
		`{"type":"counter","v":"1.4","run_id":"r2","case":0,"axis":"instructions_sim","status":"collected","value":1}`:    "counter record for run r2 inside run r1",
		`{"type":"counter","v":"1.4","run_id":"r1","case":2,"axis":"instructions_sim","status":"collected","value":1}`:    "case 2, but run r1 has 2 cases",
		`{"type":"counter","v":"1.4","run_id":"r1","case":0,"axis":"cycles_sim","status":"collected","value":1}`:          `axis "cycles_sim", which run r1 does not list`,
		`{"type":"counter","v":"1.4","run_id":"r1","case":0,"axis":"instructions_sim","status":"collected"}`:              "collected but has no value",
		`{"type":"counter","v":"1.4","run_id":"r1","case":0,"axis":"instructions_sim","status":"probe_failed","value":1}`: "an unavailable axis carries none",
		`{"type":"counter","v":"1.4","run_id":"r1","case":0,"axis":"instructions_sim"}`:                                   "has no status",
	} {
		_, err := read(runCounted, rec)
		if err == nil || !strings.Contains(err.Error(), "in:2: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", rec, err, want)
		}
	}
	if _, err := read(counter); err == nil || !strings.Contains(err.Error(), "counter record before any run record") {
		t.Errorf("a counter before any run: %v", err)
	}
}
