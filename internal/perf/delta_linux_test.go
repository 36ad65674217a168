//go:build linux

package perf

import (
	"math"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"golang.org/x/sys/unix"
)

// window opens every axis on a fake, sets cumulative counts before and
// after a batch with step, and returns the delta over n operations.
func window(t *testing.T, f *fakeSys, request []string, n int64, step func(f *fakeSys, after bool)) map[string]Value {
	t.Helper()
	s := openWith(f, request)
	t.Cleanup(func() { s.Close() })
	step(f, false)
	before := s.Snapshot()
	step(f, true)
	after := s.Snapshot()
	got := s.Delta(before, after, n)
	for axis, v := range got {
		if v.Status != axes.Collected && v.V != 0 {
			t.Errorf("%s: unavailable status %s carries value %v", axis, v.Status, v.V)
		}
	}
	return got
}

// counts sets cycles/instructions and task_clock/page_faults with their
// group times, scaled by k.
func counts(k uint64, enabled, running uint64) func(f *fakeSys, after bool) {
	return func(f *fakeSys, after bool) {
		m := uint64(1)
		if after {
			m = 1 + k
		}
		f.set(typeHardware, hwCPUCycles, 1000*m)
		f.set(typeHardware, hwInstructions, 2500*m)
		f.times(typeHardware, hwCPUCycles, 50+enabled*(m-1), 40+running*(m-1))
		f.set(typeSoftware, swTaskClock, 7000*m)
		f.set(typeSoftware, swPageFaults, 30*m)
		f.times(typeSoftware, swTaskClock, 50+enabled*(m-1), 40+running*(m-1))
	}
}

var mixed = []string{"cycles", "instructions", "ipc", "task_clock", "page_faults"}

func TestDeltaDividesByN(t *testing.T) {
	got := window(t, newFake(), mixed, 10, counts(1, 100, 100))
	wantValues(t, got, map[string]float64{
		"cycles": 100, "instructions": 250, "ipc": 2.5, "task_clock": 700, "page_faults": 3,
	})
}

func TestDeltaMultiplexingScales(t *testing.T) {
	// Enabled twice as long as running: counts double; ipc is unchanged.
	got := window(t, newFake(), mixed, 1, counts(1, 200, 100))
	wantValues(t, got, map[string]float64{
		"cycles": 2000, "instructions": 5000, "ipc": 2.5, "task_clock": 14000, "page_faults": 60,
	})
}

func TestDeltaNotRunning(t *testing.T) {
	got := window(t, newFake(), mixed, 1, counts(1, 100, 0))
	for _, axis := range mixed {
		if got[axis].Status != axes.CounterResourcesUnavailable {
			t.Errorf("%s: %+v, want counter_resources_unavailable", axis, got[axis])
		}
	}
}

func TestDeltaIPCFromOneWindow(t *testing.T) {
	step := func(f *fakeSys, after bool) {
		if !after {
			f.set(typeHardware, hwCPUCycles, 1e6)
			f.set(typeHardware, hwInstructions, 9e6) // a large cumulative history
			f.times(typeHardware, hwCPUCycles, 10, 10)
			return
		}
		f.set(typeHardware, hwCPUCycles, 1e6+400)
		f.set(typeHardware, hwInstructions, 9e6+100)
		f.times(typeHardware, hwCPUCycles, 30, 20)
	}
	got := window(t, newFake(), []string{"ipc"}, 1000, step)
	wantValues(t, got, map[string]float64{"ipc": 0.25})
	if len(got) != 1 {
		t.Errorf("ipc alone should report only ipc: %v", got)
	}
}

func TestDeltaIPCNoCycles(t *testing.T) {
	step := func(f *fakeSys, after bool) {
		f.times(typeHardware, hwCPUCycles, 10, 10)
		if after {
			f.times(typeHardware, hwCPUCycles, 20, 20)
		}
	}
	got := window(t, newFake(), []string{"ipc", "cycles"}, 1, step)
	if got["ipc"].Status != axes.InvalidValue {
		t.Errorf("ipc over zero cycles: %+v, want invalid_value", got["ipc"])
	}
	wantValues(t, got, map[string]float64{"cycles": 0})
}

func TestDeltaUnavailableProbes(t *testing.T) {
	f := newFake()
	f.fail = failWhen(typeHardware, hwCPUCycles, unix.ENOENT)
	got := window(t, f, mixed, 1, func(f *fakeSys, after bool) {
		f.times(typeSoftware, swTaskClock, 1, 1)
		if after {
			f.times(typeSoftware, swTaskClock, 5, 5)
			f.set(typeSoftware, swTaskClock, 4)
		}
	})
	for _, axis := range []string{"cycles", "instructions", "ipc"} {
		if got[axis].Status != axes.UnsupportedEvent {
			t.Errorf("%s: %+v, want unsupported_event", axis, got[axis])
		}
	}
	wantValues(t, got, map[string]float64{"task_clock": 4, "page_faults": 0})
}

func TestDeltaReadFailure(t *testing.T) {
	f := newFake()
	var leader int
	got := window(t, f, mixed, 1, func(f *fakeSys, after bool) {
		counts(1, 10, 10)(f, after)
		if after {
			leader = f.fdOf(typeSoftware, swTaskClock)
			f.readErr[leader] = unix.EIO
		}
	})
	for _, axis := range []string{"task_clock", "page_faults"} {
		if got[axis].Status != axes.ProbeFailed {
			t.Errorf("%s: %+v, want probe_failed", axis, got[axis])
		}
	}
	wantValues(t, got, map[string]float64{"cycles": 1000, "instructions": 2500, "ipc": 2.5})
}

func TestDeltaCounterReset(t *testing.T) {
	got := window(t, newFake(), []string{"task_clock"}, 1, func(f *fakeSys, after bool) {
		f.times(typeSoftware, swTaskClock, 10, 10)
		f.set(typeSoftware, swTaskClock, 500)
		if after {
			f.times(typeSoftware, swTaskClock, 20, 20)
			f.set(typeSoftware, swTaskClock, 400)
		}
	})
	if got["task_clock"].Status != axes.CounterReset {
		t.Errorf("backwards count: %+v, want counter_reset", got["task_clock"])
	}
}

func TestDeltaBadOperationCount(t *testing.T) {
	got := window(t, newFake(), []string{"task_clock", "ipc"}, 0, counts(1, 10, 10))
	if got["task_clock"].Status != axes.InvalidValue {
		t.Errorf("n=0: %+v, want invalid_value", got["task_clock"])
	}
	wantValues(t, got, map[string]float64{"ipc": 2.5})
}

func TestDeltaForeignSnapshot(t *testing.T) {
	f := newFake()
	s, other := openWith(f, []string{"task_clock"}), openWith(newFake(), []string{"task_clock"})
	counts(1, 10, 10)(f, false)
	if v := s.Delta(other.Snapshot(), s.Snapshot(), 1)["task_clock"]; v.Status != axes.ProbeFailed {
		t.Errorf("snapshot from another session: %+v, want probe_failed", v)
	}
	before := s.Snapshot()
	s.Close()
	if v := s.Delta(before, s.Snapshot(), 1)["task_clock"]; v.Status != axes.ProbeFailed {
		t.Errorf("after Close: %+v, want probe_failed", v)
	}
}

func wantValues(t *testing.T, got map[string]Value, want map[string]float64) {
	t.Helper()
	for axis, w := range want {
		v := got[axis]
		if v.Status != axes.Collected || math.Abs(v.V-w) > 1e-9*math.Max(1, math.Abs(w)) {
			t.Errorf("%s: %+v, want collected %v", axis, v, w)
		}
	}
}

func TestParseGroupRejectsShortReads(t *testing.T) {
	if _, err := parseGroup(make([]byte, 16), nil); err == nil {
		t.Error("16-byte read parsed")
	}
	b := make([]byte, groupReadSize(1))
	b[0] = 2 // claims two events
	if _, err := parseGroup(b, []uint64{1}); err == nil {
		t.Error("read claiming more events than it holds parsed")
	}
}
