package observe

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/pkg/ndjson"
)

// scriptedProc returns the next snapshot on every read.
type scriptedProc struct {
	snaps  []ProcSnapshot
	resets int
}

func (p *scriptedProc) Read(int) ProcSnapshot {
	s := p.snaps[0]
	p.snaps = p.snaps[1:]
	return s
}
func (p *scriptedProc) ResetPeak(int) error { p.resets++; return nil }

type reported map[string]string

func (r reported) Reported() map[string]string { return r }

func TestWorkerAxesAroundARequest(t *testing.T) {
	d, err := custom.ParseDecl(strings.Fields("items unit=items/op"))
	if err != nil {
		t.Fatal(err)
	}
	proc := &scriptedProc{snaps: []ProcSnapshot{
		{CPUNS: 1_000, MinorFaults: 10, VoluntarySwitches: 5, InvoluntarySwitches: 9, RSSBytes: 4 << 20, ReadBytes: 100},
		{CPUNS: 401_000, MinorFaults: 50, VoluntarySwitches: 9, InvoluntarySwitches: 7, RSSBytes: 5 << 20, PeakRSSBytes: 6 << 20, ReadBytes: 500},
	}}
	o := NewWorker(selected(t, "resources"), []int{42}, []custom.Descriptor{d}, []CustomSource{reported{"items": "0:800"}}, &stepClock{})
	o.reader, o.self = proc, &fakeSelf{}
	o.Before(0)
	var s ndjson.Sample
	o.After(0, 4, &s)
	want := map[string]float64{"cpu": 100_000, "minor_faults": 10, "voluntary_switches": 1, "rss_change": 1 << 18, "rss_peak": 6 << 20, "read_bytes": 100, "items": 200}
	for name, v := range want {
		if got := s.Axes[name]; got.V == nil || *got.V != v {
			t.Errorf("%s = %+v, want %v", name, got, v)
		}
	}
	if proc.resets != 1 {
		t.Errorf("peak reset %d times, want once before the request", proc.resets)
	}
	if v := s.Axes["involuntary_switches"]; v.S != string(axes.ProbeFailed) || v.V != nil {
		t.Errorf("a counter that went backwards must have no value: %+v", v)
	}
	if v := s.Axes["fs_inputs"]; v.S != string(axes.UnsupportedMode) {
		t.Errorf("fs_inputs in worker mode: %+v", v)
	}
}
