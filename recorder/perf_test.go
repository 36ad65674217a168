package recorder

import (
	"bytes"
	"runtime"
	"testing"
)

// perfScript injects perf readings in call order.
func perfScript(r *Recorder, snaps ...perfSnap) {
	r.perfRead = func(int32) (perfSnap, bool) { s := snaps[0]; snaps = snaps[1:]; return s, true }
}

// withPerf starts a recorder of axes sel, as on Linux, whose perf probe
// answers status and reason.
func withPerf(t *testing.T, sel Axis, status, reason string) (*Recorder, *Benchmark, func() recording) {
	t.Helper()
	var buf bytes.Buffer
	r := New(Options{Out: &buf, Axes: sel})
	r.sel = sel
	r.perfProbe = func() (string, string) { return status, reason }
	b := r.Register("a")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	return r, b, func() recording { return stop(t, r, &buf) }
}

// A span on one thread keeps the differences of its thread's perf
// counters; a span whose Finish ran on another thread keeps none and
// says thread_migrated with both thread ids.
func TestPerfOnlyOnOneThread(t *testing.T) {
	r, b, stopped := withPerf(t, PerfAxes, statusCollected, "")
	tids := []int32{5, 5, 5, 9}
	r.gettid = func() int32 { t := tids[0]; tids = tids[1:]; return t }
	perfScript(r, perfSnap{100, 2, 7}, perfSnap{450, 5, 7}, perfSnap{1000, 9, 9}, perfSnap{2000, 9, 9})
	r.Begin(b).Finish(Success)
	r.Begin(b).Finish(Success)
	got := stopped()
	want := map[string]float64{"perf_task_clock": 350, "perf_context_switches": 3, "perf_page_faults": 0}
	for name, v := range want {
		a := got.spans[0].Axes[name]
		if a.S != statusCollected || a.V == nil || *a.V != v {
			t.Errorf("same thread %s: %+v, want %v", name, a, v)
		}
		m := got.spans[1].Axes[name]
		if m.S != statusMigrated || m.V != nil || m.R != "began on OS thread 5, finished on OS thread 9" {
			t.Errorf("migrated %s: %+v", name, m)
		}
	}
}

// When the probe at Start is refused, the perf axes carry its status and
// reason in the recording record and its status on every span, never a
// value, and the counters are not read.
func TestPerfRefused(t *testing.T) {
	r, b, stopped := withPerf(t, PerfTaskClock|ThreadCPU, statusPermission, "perf_event_open: permission denied (errno 13)")
	r.perfRead = func(int32) (perfSnap, bool) {
		t.Error("perf counters read after a refused probe")
		return perfSnap{}, false
	}
	r.Begin(b).Finish(Success)
	got := stopped()
	var found bool
	for _, a := range got.head.Axes {
		if a.Name == "perf_task_clock" {
			found = true
			if a.Status != statusPermission || a.Reason != "perf_event_open: permission denied (errno 13)" ||
				a.Unit != "ns/op" || a.Scope != scopeThread || a.Attribution != attrThread || a.Family != "software" {
				t.Errorf("recording axis %+v", a)
			}
		}
	}
	if !found {
		t.Errorf("recording axes %+v lack perf_task_clock", got.head.Axes)
	}
	if a := got.spans[0].Axes["perf_task_clock"]; a.S != statusPermission || a.V != nil {
		t.Errorf("span axis %+v", a)
	}
}

// perfReal skips unless this machine lets the process count its threads'
// software events.
func perfReal(t *testing.T) {
	t.Helper()
	if status, reason := perfProbe(); status != statusCollected {
		t.Skipf("perf software events unavailable: %s: %s", status, reason)
	}
}

// The real thing: on a locked thread, after a warm-up span that opens the
// thread's counters, a span allocates nothing with every perf axis on,
// and a CPU-busy span's task clock is close to its thread CPU time (both
// count the same thread's user and kernel time).
func TestPerfReal(t *testing.T) {
	perfReal(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r, bs, buf := started(t, Options{Axes: PerfAxes | ThreadCPU}, "a")
	r.Begin(bs[0]).Finish(Success) // opens this thread's counters, if Start ran elsewhere
	allocs := testing.AllocsPerRun(200, func() { r.Begin(bs[0]).Finish(Success) })
	if allocs != 0 {
		t.Errorf("%v allocations per span with the perf axes", allocs)
	}
	s := r.Begin(bs[0])
	spin(2e7)
	s.Finish(Success)
	got := stop(t, r, buf)
	for _, sp := range got.spans {
		for _, name := range []string{"perf_task_clock", "perf_context_switches", "perf_page_faults"} {
			if a := sp.Axes[name]; a.S != statusCollected || a.V == nil || *a.V < 0 {
				t.Fatalf("span %d %s: %+v", sp.Obs, name, a)
			}
		}
	}
	busy := got.spans[len(got.spans)-1]
	clock, cpu := float64(*busy.Axes["perf_task_clock"].V), float64(*busy.Axes["thread_cpu"].V)
	if cpu <= 0 || clock < 0.8*cpu || clock > 1.25*cpu {
		t.Errorf("busy span: task clock %v ns, thread CPU %v ns", clock, cpu)
	}
	t.Logf("busy span: task clock %v ns, thread CPU %v ns", clock, cpu)
}
