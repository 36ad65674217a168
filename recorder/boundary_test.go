package recorder

import (
	"fmt"
	"io"
	"slices"
	"testing"
	"time"
)

// Begin and Finish allocate nothing on the heap, whichever axes are read,
// and neither does the stream's writer, which runs meanwhile with Stream.
func TestBoundaryAllocatesNothing(t *testing.T) {
	for name, axes := range map[string]Axis{"wall": 0, "thread_cpu": ThreadCPU, "all": AllAxes, "perf": PerfAxes | AllAxes} {
		for _, stream := range []bool{false, true} {
			boundaryAllocs(t, fmt.Sprintf("%s stream=%v", name, stream), Options{Axes: axes, Stream: stream})
		}
	}
}

// With Stream, a ring smaller than the run sends spans down both paths:
// queued and deferred to the store.
func TestStreamBoundaryAllocatesNothing(t *testing.T) {
	boundaryAllocs(t, "small ring", Options{Axes: ThreadCPU, Stream: true, StreamBuffer: 8})
}

func boundaryAllocs(t *testing.T, name string, opts Options) {
	t.Helper()
	opts.Out, opts.Capacity = io.Discard, 16
	r := New(opts)
	r.streamEvery = 50 * time.Microsecond // so the writer runs during the loop
	b := r.Register("a")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		s := r.Begin(b)
		s.Finish(Success)
	})
	if allocs != 0 {
		t.Errorf("%s: %v allocations per span", name, allocs)
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
}

// The boundary readings happen in a fixed order: Begin reads the process,
// the thread, and the clock last; Finish reads the clock first, then the
// thread's clock and id, then the process, and none of them while the
// store's lock is held.
func TestFinishReadsTheClockFirstAndOutsideTheLock(t *testing.T) {
	r := New(Options{Out: io.Discard, Axes: ThreadCPU | ProcessCPU})
	b := r.Register("a")
	var calls []string
	note := func(what string) {
		if !b.mu.TryLock() {
			t.Errorf("%s read while the store's lock is held", what)
			return
		}
		b.mu.Unlock()
		calls = append(calls, what)
	}
	r.now = func() int64 { note("clock"); return 0 }
	r.gettid = func() int32 { note("tid"); return 1 }
	r.threadCPU = func(int32) (int64, bool) { note("thread"); return 0, true }
	r.rusage = func() (procSnap, bool) { note("process"); return procSnap{}, true }
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	s := r.Begin(b)
	calls = append(calls, "|")
	s.Finish(Success)
	want := []string{"process", "tid", "thread", "clock", "|", "clock", "thread", "tid", "process"}
	if !slices.Equal(calls, want) {
		t.Errorf("reads %v, want %v", calls, want)
	}
	if b.observed != 1 {
		t.Errorf("%d observed", b.observed)
	}
}

// The wall time is the difference of the two clock reads and the start is
// the first one, on an injected clock.
func TestWallIsTheClockDifference(t *testing.T) {
	r, bs, buf := started(t, Options{}, "a")
	c := fakeClock{t: 1000, step: 250}
	r.now = c.now
	r.Begin(bs[0]).Finish(Timeout)
	got := stop(t, r, buf)
	s := got.spans[0]
	if s.StartNS != 1250 || *s.WallNS != 250 || s.Outcome != "timeout" || s.Obs != 1 {
		t.Errorf("span %+v wall %d", s, *s.WallNS)
	}
	if got.end.ElapsedNS != 1750 {
		t.Errorf("elapsed %d, want 1750", got.end.ElapsedNS)
	}
}
