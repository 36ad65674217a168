package report

import (
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestLoadFixture(t *testing.T) {
	runs := fixtureRuns(t)
	want := []struct {
		cases, samples, comparisons int
		complete                    bool
	}{{2, 100, 1, true}, {5, 100, 4, true}, {2, 4, 1, false}, {1, 55, 0, true}}
	if len(runs) != len(want) {
		t.Fatalf("got %d runs, want %d", len(runs), len(want))
	}
	for i, w := range want {
		r := runs[i]
		if len(r.Run.Cases) != w.cases || len(r.Samples) != w.samples ||
			len(r.Comparisons) != w.comparisons || (r.Incomplete() == "") != w.complete {
			t.Errorf("run %d: %d cases, %d samples, %d comparisons, incomplete %q",
				i, len(r.Run.Cases), len(r.Samples), len(r.Comparisons), r.Incomplete())
		}
	}
}

func TestLoadEnvironmentFixture(t *testing.T) {
	runs := envFixtureRuns(t)
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	retake, busy := runs[0], runs[1]
	if retake.Lock == nil || retake.Gate == nil || len(retake.Windows) != 10 || retake.Environment == nil ||
		len(retake.Samples) != 64 {
		t.Errorf("retake run: lock %v, gate %v, %d windows, %d samples, environment %v",
			retake.Lock, retake.Gate, len(retake.Windows), len(retake.Samples), retake.Environment)
	}
	if busy.Lock == nil || busy.Lock.Outcome != ndjson.LockBusy || busy.Gate != nil || len(busy.Windows) != 3 {
		t.Errorf("busy run: lock %v, gate %v, %d windows", busy.Lock, busy.Gate, len(busy.Windows))
	}
}
