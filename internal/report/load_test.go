package report

import (
	"bytes"
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
		if len(r.Run.Cases) != w.cases || r.Samples.Len() != w.samples ||
			len(r.Comparisons) != w.comparisons || (r.Incomplete() == "") != w.complete {
			t.Errorf("run %d: %d cases, %d samples, %d comparisons, incomplete %q",
				i, len(r.Run.Cases), r.Samples.Len(), len(r.Comparisons), r.Incomplete())
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
		retake.Samples.Len() != 64 {
		t.Errorf("retake run: lock %v, gate %v, %d windows, %d samples, environment %v",
			retake.Lock, retake.Gate, len(retake.Windows), retake.Samples.Len(), retake.Environment)
	}
	if busy.Lock == nil || busy.Lock.Outcome != ndjson.LockBusy || busy.Gate != nil || len(busy.Windows) != 3 {
		t.Errorf("busy run: lock %v, gate %v, %d windows", busy.Lock, busy.Gate, len(busy.Windows))
	}
}

// TestLoadForKeepsWhatTheFormatNeeds: a stream loaded for a format keeps
// only the samples that format reads, and the format writes the same
// bytes from it as from a stream that keeps every sample.
func TestLoadForKeepsWhatTheFormatNeeds(t *testing.T) {
	stream := fixtureStream(t)
	for _, tc := range []struct {
		opt                    Options
		samples, times, points bool
	}{
		{Options{}, false, false, false},
		{Options{Format: "csv"}, false, false, false},
		{Options{Format: "markdown"}, false, false, false},
		{Options{Format: "json"}, false, false, false},
		{Options{Format: "json", Samples: true}, true, false, false},
		{Options{Format: "hyperfine-json"}, false, true, false},
		{Options{Format: "html"}, false, false, true},
		{Options{Format: "svg", Plot: "distributions", Run: pairedID}, false, false, true},
	} {
		s, err := LoadFor(ndjson.NewReader(bytes.NewReader(stream), "fixture.ndjson"), tc.opt)
		check(t, err)
		r := s.Runs[0]
		if (r.Samples != nil) != tc.samples || (r.Times != nil) != tc.times || (r.Points != nil) != tc.points {
			t.Errorf("%+v: %d samples, %d times, %d points", tc.opt, r.Samples.Len(), len(r.Times), len(r.Points))
		}
		all, err := LoadStream(ndjson.NewReader(bytes.NewReader(stream), "fixture.ndjson"))
		check(t, err)
		if got, want := renderStream(t, s, tc.opt), renderStream(t, all, tc.opt); !bytes.Equal(got, want) {
			t.Errorf("%+v: the output differs from a stream that keeps every sample:\n%s", tc.opt, firstDiff(string(want), string(got)))
		}
	}
}
