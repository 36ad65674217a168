//go:build linux

package perf

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/axes"
	"golang.org/x/sys/unix"
)

// These tests open real counters on the test's locked thread.

const childLoop = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"

var realAxes = []string{"cycles", "instructions", "ipc", "task_clock", "context_switches", "page_faults", "cpu_migrations"}

func hasHardwarePMU() bool {
	for _, name := range hardwarePMUs {
		if _, err := os.Stat(pmuDir + "/" + name); err == nil {
			return true
		}
	}
	return false
}

// openReal opens the real axes on the locked calling thread, skipping the
// test when this kernel does not offer software counters at all.
func openReal(tb testing.TB, request []string) *Session {
	tb.Helper()
	s := Open(request)
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Error(err)
		}
	})
	for _, p := range s.Probes() {
		tb.Logf("probe %-16s %-22s %s", p.Axis, p.Status, p.Reason)
		if p.Axis == "task_clock" && (p.Status == axes.PermissionDenied || p.Status == axes.UnsupportedPlatform) {
			tb.Skipf("software counters unavailable here: %s", p.Reason)
		}
	}
	return s
}

func TestRealProbes(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := openReal(t, realAxes)
	for _, p := range s.Probes() {
		switch {
		case p.Axis == "task_clock" || p.Axis == "context_switches" || p.Axis == "page_faults" || p.Axis == "cpu_migrations":
			if p.Status != axes.Collected {
				t.Errorf("%s: %s %q, want collected", p.Axis, p.Status, p.Reason)
			}
		case !hasHardwarePMU():
			if p.Status != axes.UnsupportedEvent || !strings.Contains(p.Reason, "no hardware PMU") {
				t.Errorf("%s: %s %q, want unsupported_event: no hardware PMU", p.Axis, p.Status, p.Reason)
			}
		}
	}
}

// runChild forks and reaps one shell loop from the calling thread and
// returns its CPU time and minor faults from wait4.
func runChild(t *testing.T) (cpu time.Duration, minflt int64) {
	t.Helper()
	pid, err := syscall.ForkExec("/bin/sh", []string{"sh", "-c", childLoop}, &syscall.ProcAttr{})
	if err != nil {
		t.Fatalf("fork/exec /bin/sh: %v", err)
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	for {
		_, err = syscall.Wait4(pid, &ws, 0, &ru)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil || ws.ExitStatus() != 0 {
		t.Fatalf("wait4 %d: %v, status %v", pid, err, ws)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Minflt
}

func TestRealChildrenAreCounted(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := openReal(t, realAxes)
	snaps := []Snapshot{s.Snapshot()}
	for child := 1; child <= 2; child++ {
		cpu, minflt := runChild(t)
		snaps = append(snaps, s.Snapshot())
		d := s.Delta(snaps[child-1], snaps[child], 1)
		tc, pf := d["task_clock"], d["page_faults"]
		t.Logf("child %d: task_clock %.3f ms, rusage cpu %.3f ms (ratio %.3f); page_faults %.0f, ru_minflt %d; "+
			"context_switches %+v, cpu_migrations %+v",
			child, tc.V/1e6, float64(cpu)/1e6, tc.V/float64(cpu), pf.V, minflt, d["context_switches"], d["cpu_migrations"])
		if tc.Status != axes.Collected || tc.V <= 0 {
			t.Fatalf("child %d: task_clock %+v, want a positive count", child, tc)
		}
		if r := tc.V / float64(cpu); cpu > 5*time.Millisecond && (r < 0.5 || r > 2) {
			t.Errorf("child %d: task_clock %.0f ns is %.2f× the child's rusage CPU %v", child, tc.V, r, cpu)
		}
		if pf.Status != axes.Collected || pf.V < 0.8*float64(minflt) {
			t.Errorf("child %d: page_faults %+v, want at least about ru_minflt %d", child, pf, minflt)
		}
		for _, hw := range []string{"cycles", "instructions", "ipc"} {
			if v := d[hw]; !hasHardwarePMU() && (v.Status != axes.UnsupportedEvent || v.V != 0) {
				t.Errorf("%s without a hardware PMU: %+v, want unsupported_event", hw, v)
			}
		}
	}
}

// TestRealFirstChildCounted guards Open's settling sleep: without it, the
// first child forked after the events were installed lost its page faults
// and context switches in up to two thirds of sessions when parent and
// child shared a CPU.
func TestRealFirstChildCounted(t *testing.T) {
	runtime.LockOSThread() // never unlocked: the thread dies with its pinned affinity
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	cpu := 0
	for !set.IsSet(cpu) {
		cpu++
	}
	set.Zero()
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	for round := range 20 {
		s := Open(software)
		before := s.Snapshot()
		_, minflt := runChild(t)
		pf := s.Delta(before, s.Snapshot(), 1)["page_faults"]
		s.Close()
		if pf.Status == axes.PermissionDenied || pf.Status == axes.UnsupportedPlatform {
			t.Skipf("software counters unavailable: %+v", pf)
		}
		if pf.Status != axes.Collected || pf.V < 0.8*float64(minflt) {
			t.Fatalf("round %d: first child's page_faults %+v, ru_minflt %d", round, pf, minflt)
		}
	}
}

func BenchmarkSnapshot(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := openReal(b, []string{"task_clock", "context_switches", "cpu_migrations", "page_faults"})
	b.ReportAllocs()
	for b.Loop() {
		s.Snapshot()
	}
}
