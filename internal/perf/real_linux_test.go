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
	pinToOneCPU(t)
	firstChildren(t, 20)
}

// TestRealFirstChildCountedUnderSignals guards the settling sleep against
// signals: a signal pending when the sleep began ended it without a
// switch, and 5 of 200 first children lost their counts (0-3 of 63 page
// faults; once in CI 42 of 63) while another goroutine signalled the
// thread as the Go runtime's preemption does.
func TestRealFirstChildCountedUnderSignals(t *testing.T) {
	pinToOneCPU(t)
	pid, tid := unix.Getpid(), unix.Gettid()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			unix.Tgkill(pid, tid, unix.SIGURG)
			time.Sleep(time.Microsecond)
		}
	}()
	defer func() { close(stop); <-done }()
	firstChildren(t, 200)
}

// pinToOneCPU locks the test to its thread and the thread to one CPU, so
// that parent and child share it. The thread is never unlocked: it dies
// with its pinned affinity.
func pinToOneCPU(t *testing.T) {
	t.Helper()
	runtime.LockOSThread()
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
}

// firstChildren opens the software counters rounds times and checks that
// the first child forked after each Open is counted.
func firstChildren(t *testing.T, rounds int) {
	t.Helper()
	for round := range rounds {
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
