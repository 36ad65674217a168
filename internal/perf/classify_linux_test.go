//go:build linux

package perf

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"golang.org/x/sys/unix"
)

var (
	hardware = []string{"cycles", "instructions", "ipc", "cache_misses", "branches", "branch_misses"}
	software = []string{"task_clock", "context_switches", "cpu_migrations", "page_faults"}
)

type want struct {
	status axes.Status
	reason []string // substrings of the probe's reason
}

func TestClassification(t *testing.T) {
	cpuDir := map[string]bool{pmuDir + "/cpu": true}
	cases := []struct {
		name     string
		request  []string
		fail     func(attr, int) error
		dirs     map[string]bool
		paranoid string
		want     map[string]want
	}{
		{"ENOENT without PMU", []string{"cycles"}, failWhen(typeHardware, hwCPUCycles, unix.ENOENT), nil, "",
			map[string]want{"cycles": {axes.UnsupportedEvent, []string{"no hardware PMU (no cpu entry under /sys/bus/event_source/devices)", "ENOENT"}}}},
		{"ENOENT with PMU", []string{"cycles"}, failWhen(typeHardware, hwCPUCycles, unix.ENOENT), cpuDir, "",
			map[string]want{"cycles": {axes.UnsupportedEvent, []string{"the PMU does not implement this event"}}}},
		{"ENOENT with hybrid PMU", []string{"branches"}, failWhen(typeHardware, hwBranchInstructions, unix.ENOENT),
			map[string]bool{pmuDir + "/cpu_core": true}, "",
			map[string]want{"branches": {axes.UnsupportedEvent, []string{"the PMU does not implement this event"}}}},
		{"EOPNOTSUPP", []string{"cache_misses"}, failWhen(typeHardware, hwCacheMisses, unix.EOPNOTSUPP), cpuDir, "",
			map[string]want{"cache_misses": {axes.UnsupportedEvent, []string{"does not implement", "EOPNOTSUPP"}}}},
		{"ENODEV", []string{"branch_misses"}, failWhen(typeHardware, hwBranchMisses, unix.ENODEV), nil, "",
			map[string]want{"branch_misses": {axes.UnsupportedEvent, []string{"ENODEV"}}}},
		{"EACCES", []string{"cycles"}, failWhen(typeHardware, hwCPUCycles, unix.EACCES), nil, "3\n",
			map[string]want{"cycles": {axes.PermissionDenied, []string{"perf_event_paranoid is 3", paranoidPath, "set it to 2 or lower", "CAP_PERFMON"}}}},
		{"EPERM below the paranoid limit", []string{"cycles"}, failWhen(typeHardware, hwCPUCycles, unix.EPERM), nil, "2",
			map[string]want{"cycles": {axes.PermissionDenied, []string{"EPERM", "perf_event_paranoid is 2", "seccomp"}}}},
		{"EACCES paranoid unreadable", []string{"cycles"}, failWhen(typeHardware, hwCPUCycles, unix.EACCES), nil, "",
			map[string]want{"cycles": {axes.PermissionDenied, []string{paranoidPath, "could not be read", "2 or lower"}}}},
		{"EMFILE", []string{"branches"}, failWhen(typeHardware, hwBranchInstructions, unix.EMFILE), nil, "",
			map[string]want{"branches": {axes.CounterResourcesUnavailable, []string{"EMFILE"}}}},
		{"EBUSY", []string{"branches"}, failWhen(typeHardware, hwBranchInstructions, unix.EBUSY), nil, "",
			map[string]want{"branches": {axes.CounterResourcesUnavailable, []string{"EBUSY"}}}},
		{"ENOSPC", []string{"branches"}, failWhen(typeHardware, hwBranchInstructions, unix.ENOSPC), nil, "",
			map[string]want{"branches": {axes.CounterResourcesUnavailable, []string{"ENOSPC"}}}},
		{"ENOSYS", []string{"task_clock"}, failWhen(typeSoftware, swTaskClock, unix.ENOSYS), nil, "",
			map[string]want{"task_clock": {axes.UnsupportedPlatform, []string{"ENOSYS"}}}},
		{"other errno", []string{"task_clock"}, failWhen(typeSoftware, swTaskClock, unix.EIO), nil, "",
			map[string]want{"task_clock": {axes.ProbeFailed, []string{"EIO"}}}},
		{"EINVAL, re-probe opens", []string{"cycles"}, failFull(typeHardware, hwCPUCycles, unix.EINVAL, nil), nil, "",
			map[string]want{"cycles": {axes.ProbeFailed, []string{"the kernel rejected the attribute combination (inherit/group/read format) for this event"}}}},
		{"EINVAL, re-probe ENOENT", []string{"cycles"}, failFull(typeHardware, hwCPUCycles, unix.EINVAL, unix.ENOENT), nil, "",
			map[string]want{"cycles": {axes.UnsupportedEvent, []string{"no hardware PMU", "ENOENT"}}}},
		{"EINVAL, re-probe EACCES", []string{"cycles"}, failFull(typeHardware, hwCPUCycles, unix.EINVAL, unix.EACCES), nil, "4",
			map[string]want{"cycles": {axes.PermissionDenied, []string{"perf_event_paranoid is 4"}}}},
		{"EINVAL, re-probe EINVAL", []string{"cycles"}, failWhen(typeHardware, hwCPUCycles, unix.EINVAL), nil, "",
			map[string]want{"cycles": {axes.UnsupportedEvent, []string{"the kernel cannot map this generic event on this PMU"}}}},
		{"leader failure propagates", []string{"instructions", "ipc", "cycles"}, failWhen(typeHardware, hwCPUCycles, unix.EACCES), nil, "3",
			map[string]want{
				"cycles":       {axes.PermissionDenied, []string{"perf_event_paranoid is 3"}},
				"instructions": {axes.PermissionDenied, []string{"group leader cycles did not open", "perf_event_paranoid is 3"}},
				"ipc":          {axes.PermissionDenied, []string{"needs cycles", "perf_event_paranoid is 3"}},
			}},
		{"member failure isolated", append(hardware, software...), failWhen(typeSoftware, swContextSwitches, unix.ENOSPC), nil, "",
			map[string]want{
				"cycles": {axes.Collected, nil}, "instructions": {axes.Collected, nil}, "ipc": {axes.Collected, nil},
				"cache_misses": {axes.Collected, nil}, "branches": {axes.Collected, nil}, "branch_misses": {axes.Collected, nil},
				"task_clock": {axes.Collected, nil}, "context_switches": {axes.CounterResourcesUnavailable, []string{"ENOSPC"}},
				"cpu_migrations": {axes.Collected, nil}, "page_faults": {axes.Collected, nil},
			}},
		{"ipc member failure", []string{"ipc"}, failWhen(typeHardware, hwInstructions, unix.EOPNOTSUPP), cpuDir, "",
			map[string]want{"ipc": {axes.UnsupportedEvent, []string{"needs instructions", "does not implement"}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake()
			f.fail, f.paranoid = c.fail, c.paranoid
			if c.dirs != nil {
				f.dirs = c.dirs
			}
			s := openWith(f, c.request)
			checkProbes(t, s.Probes(), c.want)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if len(f.events) != 0 {
				t.Errorf("%d events left open after Close", len(f.events))
			}
		})
	}
}

func checkProbes(t *testing.T, probes []Probe, want map[string]want) {
	t.Helper()
	if len(probes) != len(want) {
		t.Errorf("got %d probes %+v, want %d", len(probes), probes, len(want))
	}
	for _, p := range probes {
		w, ok := want[p.Axis]
		if !ok {
			t.Errorf("unexpected probe %+v", p)
			continue
		}
		if p.Status != w.status {
			t.Errorf("%s: status %s (%q), want %s", p.Axis, p.Status, p.Reason, w.status)
		}
		for _, sub := range w.reason {
			if !strings.Contains(p.Reason, sub) {
				t.Errorf("%s: reason %q lacks %q", p.Axis, p.Reason, sub)
			}
		}
	}
}

func TestReprobeUsesOnlyPermissionAttributes(t *testing.T) {
	f := newFake()
	f.fail = failFull(typeHardware, hwCPUCycles, unix.EINVAL, nil)
	s := openWith(f, []string{"cycles"})
	defer s.Close()
	if len(f.opens) != 2 {
		t.Fatalf("got %d opens, want the full open and one re-probe: %+v", len(f.opens), f.opens)
	}
	re := f.opens[1]
	wantAttr := attr{Type: typeHardware, Config: hwCPUCycles, ExcludeKernel: true, ExcludeHV: true}
	if re.a != wantAttr || re.groupFd != -1 {
		t.Errorf("re-probe opened %+v in group %d, want %+v alone", re.a, re.groupFd, wantAttr)
	}
	if len(f.closed) != 1 || len(f.events) != 0 {
		t.Errorf("re-probe fd not closed: closed %v, open %v", f.closed, f.events)
	}
}

func TestOpenAttributes(t *testing.T) {
	f := newFake()
	s := openWith(f, append(hardware, software...))
	defer s.Close()
	for _, o := range f.opens {
		if !o.a.Inherit || !o.a.ExcludeHV || o.a.ReadFormat != readFormat {
			t.Errorf("%+v: want inherit, exclude_hv and the group read format", o.a)
		}
		if kernelOff := o.a.Type == typeHardware; o.a.ExcludeKernel != kernelOff {
			t.Errorf("%+v: exclude_kernel should be %v", o.a, kernelOff)
		}
	}
	leaders := map[uint64]bool{hwCPUCycles: true, hwCacheMisses: true, hwBranchInstructions: true, hwBranchMisses: true}
	for _, o := range f.opens {
		isLeader := o.groupFd == -1
		wantLeader := (o.a.Type == typeHardware && leaders[o.a.Config]) || (o.a.Type == typeSoftware && o.a.Config == swTaskClock)
		if isLeader != wantLeader {
			t.Errorf("%+v: leader %v, want %v", o.a, isLeader, wantLeader)
		}
	}
	if len(f.opens) != 9 {
		t.Errorf("opened %d events, want 9", len(f.opens))
	}
}

func TestOpenOnlyRequested(t *testing.T) {
	f := newFake()
	s := openWith(f, []string{"page_faults", "wall", "bogus", "instructions", "page_faults"})
	defer s.Close()
	var got []string
	for _, p := range s.Probes() {
		got = append(got, p.Axis)
	}
	if strings.Join(got, ",") != "page_faults,instructions" {
		t.Errorf("probes for %v, want page_faults,instructions", got)
	}
	if len(f.opens) != 2 {
		t.Errorf("opened %+v, want only page_faults and instructions", f.opens)
	}
	if s := openWith(newFake(), []string{"ipc"}); len(s.groups) != 1 || len(s.groups[0].fds) != 2 {
		t.Errorf("ipc alone should open cycles and instructions in one group")
	}
}

func TestSoftwareRetriesWithoutKernel(t *testing.T) {
	f := newFake()
	f.paranoid = "2\n"
	f.fail = func(a attr, _ int) error {
		if a.Type == typeSoftware && !a.ExcludeKernel {
			return unix.EACCES
		}
		return nil
	}
	s := openWith(f, software)
	defer s.Close()
	for _, p := range s.Probes() {
		if p.Status != axes.Collected {
			t.Errorf("%s: %s %q, want collected after the exclude_kernel retry", p.Axis, p.Status, p.Reason)
		}
	}
	for _, p := range s.Probes() {
		for _, sub := range []string{"kernel-side counts excluded", "perf_event_paranoid is 2", "set it to 1 or lower"} {
			if !strings.Contains(p.Reason, sub) {
				t.Errorf("%s reason %q lacks %q", p.Axis, p.Reason, sub)
			}
		}
	}
	for _, o := range f.opens[1:] {
		if !o.a.ExcludeKernel {
			t.Errorf("%+v opened with kernel counting after the leader needed exclude_kernel", o.a)
		}
	}
	// The leader needed the retry; members start without kernel counting.
	if n := len(f.opens); n != 5 {
		t.Errorf("got %d opens, want 2 for the leader and 1 per member: %+v", n, f.opens)
	}
}

func TestSoftwareRefusedEvenWithoutKernel(t *testing.T) {
	f := newFake()
	f.paranoid = "3"
	f.fail = failWhen(typeSoftware, swTaskClock, unix.EACCES)
	s := openWith(f, []string{"task_clock", "page_faults"})
	defer s.Close()
	checkProbes(t, s.Probes(), map[string]want{
		"task_clock":  {axes.PermissionDenied, []string{"perf_event_paranoid is 3", "set it to 2 or lower"}},
		"page_faults": {axes.PermissionDenied, []string{"group leader task_clock"}},
	})
}

func TestIDFailure(t *testing.T) {
	f := newFake()
	f.idErr = unix.ENOTTY
	s := openWith(f, []string{"task_clock", "page_faults"})
	defer s.Close()
	checkProbes(t, s.Probes(), map[string]want{
		"task_clock":  {axes.ProbeFailed, []string{"PERF_EVENT_IOC_ID"}},
		"page_faults": {axes.ProbeFailed, []string{"group leader task_clock"}},
	})
	if len(f.events) != 0 {
		t.Errorf("events left open: %v", f.events)
	}
}

func TestOpenSettlesOnce(t *testing.T) {
	f := newFake()
	openWith(f, append(hardware, software...)).Close()
	if f.settled != 1 {
		t.Errorf("rescheduled %d times after opening, want once", f.settled)
	}
	f = newFake()
	f.fail = func(attr, int) error { return unix.ENOENT }
	openWith(f, software).Close()
	if f.settled != 0 {
		t.Errorf("rescheduled %d times with nothing open, want none", f.settled)
	}
}
