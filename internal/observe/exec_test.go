package observe

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

type fakeUsage struct{ u runner.Usage }

func (f *fakeUsage) Usage() runner.Usage { return f.u }

type fakeSelf struct{ cpu, rss int64 }

func (f *fakeSelf) CPU() int64 { return f.cpu }
func (f *fakeSelf) RSS() int64 { return f.rss }

type stepClock struct{ now int64 }

func (c *stepClock) Now() int64 { return c.now }

func selected(t *testing.T, spec string) []axes.Axis {
	t.Helper()
	a, err := axes.Select(spec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRusageAxesPerOperation(t *testing.T) {
	use := &fakeUsage{runner.Usage{Runs: 4, UserNS: 3_000_000, SystemNS: 1_000_000, MaxRSSKiB: 2048,
		MinorFaults: 400, MajorFaults: 0, VoluntarySwitches: 8, InvoluntarySwitches: 2, BlockIn: 4, BlockOut: 0,
		ReadBytes: 8192, WriteBytes: 0}}
	self := &fakeSelf{cpu: 1_000_000, rss: 10 << 20}
	clk := &stepClock{}
	o := NewExec(selected(t, "resources"), []UsageSource{use}, clk)
	o.self = self
	o.Before(0)
	self.cpu += 500_000 // the harness used 0.5 ms
	clk.now += 9_000_000
	var s ndjson.Sample
	o.After(0, 4, &s)
	want := map[string]float64{
		"cpu": 1_000_000, "rss_peak": 2048 * 1024, "minor_faults": 100, "major_faults": 0,
		"voluntary_switches": 2, "involuntary_switches": 0.5, "fs_inputs": 1, "fs_outputs": 0,
		"read_bytes": 2048, "write_bytes": 0,
	}
	for name, v := range want {
		got := s.Axes[name]
		if got.S != "collected" || got.V == nil || *got.V != v {
			t.Errorf("%s = %+v, want collected %v", name, got, v)
		}
	}
	if rc := s.Axes["rss_change"]; rc.S != string(axes.UnsupportedMode) || rc.V != nil {
		t.Errorf("rss_change in exec mode = %+v, want unsupported_mode without a value", rc)
	}
	// CPU of the run: 0.5 ms harness + 4 ms children over 9 ms = 50%.
	if s.Tele == nil || s.Tele.CPUPct != 50 || s.Tele.RSSBytes != 10<<20+2<<20 {
		t.Errorf("telemetry %+v", s.Tele)
	}
}

func TestIOFailureIsProbeFailedNotZero(t *testing.T) {
	use := &fakeUsage{runner.Usage{Runs: 1, IOErr: errors.New("read /proc/7/io: permission denied")}}
	o := NewExec(selected(t, "read_bytes,write_bytes"), []UsageSource{use}, &stepClock{})
	o.self = &fakeSelf{}
	o.Before(0)
	var s ndjson.Sample
	o.After(0, 1, &s)
	for _, name := range []string{"read_bytes", "write_bytes"} {
		v := s.Axes[name]
		if v.S != string(axes.ProbeFailed) || v.V != nil || !strings.Contains(v.R, "permission denied") {
			t.Errorf("%s = %+v", name, v)
		}
	}
}

func TestInfosCarryProvenance(t *testing.T) {
	o := NewExec(selected(t, "cpu,rss_change"), []UsageSource{&fakeUsage{}}, &stepClock{})
	infos := o.Infos()
	if len(infos) != 3 || infos[0].Name != "wall" || infos[1].Name != "cpu" {
		t.Fatalf("infos %+v", infos)
	}
	if infos[1].Scope != axes.ScopeOperationProcess || infos[1].Attribution != axes.AttrExactWindow || infos[1].Direction != "lower" {
		t.Fatalf("cpu provenance %+v", infos[1])
	}
	if infos[2].Status != string(axes.UnsupportedMode) || infos[2].Reason == "" {
		t.Fatalf("rss_change %+v", infos[2])
	}
}

// A child's ru_maxrss includes the high-water mark it inherited at exec;
// a peak not above its method's floor is an upper bound, labelled so and
// without a value.
func TestPeakAtTheFloorIsAnUpperBound(t *testing.T) {
	use := &fakeUsage{runner.Usage{Runs: 1, MaxRSSKiB: 6144, PeakMethod: runner.PeakClearRefs, PeakFloorKiB: 8192}}
	o := NewExec(selected(t, "rss_peak"), []UsageSource{use}, &stepClock{})
	o.self = &fakeSelf{}
	o.Before(0)
	var s ndjson.Sample
	o.After(0, 1, &s)
	if v := s.Axes["rss_peak"]; v.S != string(axes.Unattributable) || v.V != nil ||
		!strings.Contains(v.R, "upper bound only: the runs' peak is at most 6.0 MiB, at or near the 8.0 MiB") || !strings.Contains(v.R, "clear_refs") {
		t.Fatalf("rss_peak at the floor = %+v", v)
	}
	use.u.MaxRSSKiB = 65536
	o.Before(0)
	o.After(0, 1, &s)
	if v := s.Axes["rss_peak"]; v.S != "collected" || *v.V != 64<<20 {
		t.Fatalf("rss_peak above the floor = %+v", v)
	}
}

// The run record names rss_peak's method and why better ones were passed.
func TestPeakMethodInRunRecord(t *testing.T) {
	o := NewExec(selected(t, "rss_peak"), nil, &stepClock{})
	o.peak = func() runner.Peak {
		return runner.Peak{Method: runner.PeakClearRefs, Passed: []string{"launcher: unavailable: x", "clear_refs: unavailable: y"}}
	}
	infos := o.Infos()
	if len(infos) != 2 || infos[1].Method != "clear_refs" || infos[1].MethodNote != "launcher: unavailable: x; clear_refs: unavailable: y" || infos[1].Status != "collected" {
		t.Fatalf("Infos() = %+v", infos)
	}
}

// mem_peak: the run record names the cgroup version and where the cgroups
// are; a host without a usable cgroup says why (permission denied when the
// kernel refused the directory); a batch whose cgroup could not be read is
// probe_failed with the reason, else the charge above the batch's start.
func TestChargedPeakAxis(t *testing.T) {
	use := &fakeUsage{}
	o := NewExec(selected(t, "mem_peak"), []UsageSource{use}, &stepClock{})
	o.self = &fakeSelf{}
	o.goos = "linux"
	o.cgroups = func() runner.MemCgroups {
		return runner.MemCgroups{Version: 1, Parent: "/sys/fs/cgroup/memory/job", Home: "/sys/fs/cgroup/memory/job"}
	}
	infos := o.Infos()
	if len(infos) != 2 || infos[1].Method != "cgroup_v1" || infos[1].MethodNote != "a cgroup per command under /sys/fs/cgroup/memory/job" || infos[1].Status != "collected" || infos[1].Family != "cgroup" {
		t.Fatalf("Infos() = %+v", infos)
	}
	var s ndjson.Sample
	use.u = runner.Usage{ChargedPeakBytes: 3 << 20, ChargedMethod: "cgroup_v1"}
	o.Before(0)
	o.After(0, 4, &s)
	if v := s.Axes["mem_peak"]; v.S != "collected" || *v.V != 3<<20 {
		t.Fatalf("mem_peak = %+v, want 3 MiB, not divided by the batch", v)
	}
	use.u = runner.Usage{ChargedMethod: "cgroup_v1", ChargedErr: errors.New("move this thread into /x: no such process")}
	o.After(0, 1, &s)
	if v := s.Axes["mem_peak"]; v.S != "probe_failed" || v.V != nil || v.R != "move this thread into /x: no such process" {
		t.Fatalf("mem_peak of a failed read = %+v", v)
	}
	for _, c := range []struct {
		err    error
		status string
	}{
		{fmt.Errorf("cannot make a cgroup in /x: %w", fs.ErrPermission), "permission_denied"},
		{errors.New("no cgroup v2 hierarchy is mounted; no cgroup v1 memory hierarchy is mounted"), "probe_failed"},
	} {
		o.cgroups = func() runner.MemCgroups { return runner.MemCgroups{Err: c.err} }
		infos := o.Infos()
		if infos[1].Status != c.status || !strings.Contains(infos[1].Reason, c.err.Error()) || infos[1].Method != "" {
			t.Errorf("Infos() without a cgroup (%v) = %+v, want %s", c.err, infos[1], c.status)
		}
	}
	o.goos = "darwin"
	if infos := o.Infos(); infos[1].Status != "unsupported_platform" {
		t.Errorf("Infos() on darwin = %+v", infos[1])
	}
}
