package recorder

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// threadScript injects thread ids and thread CPU readings in call order.
type threadScript struct {
	tids []int32
	cpus []int64
	ok   bool
}

func (s *threadScript) install(r *Recorder) {
	r.gettid = func() int32 { t := s.tids[0]; s.tids = s.tids[1:]; return t }
	r.threadCPU = func(int32) (int64, bool) { c := s.cpus[0]; s.cpus = s.cpus[1:]; return c, s.ok }
}

// A span whose Finish runs on another thread keeps no thread CPU value:
// it carries thread_migrated and both thread ids; a span on one thread
// keeps the difference of its thread's clock.
func TestThreadCPUOnlyOnOneThread(t *testing.T) {
	r, bs, buf := started(t, Options{Axes: ThreadCPU}, "a")
	sc := &threadScript{tids: []int32{5, 5, 5, 9}, cpus: []int64{100, 350, 1000, 1400}, ok: true}
	sc.install(r)
	r.sel |= ThreadCPU // as on Linux, whatever this platform is
	r.Begin(bs[0]).Finish(Success)
	r.Begin(bs[0]).Finish(Success)
	got := stop(t, r, buf)
	same, moved := got.spans[0].Axes["thread_cpu"], got.spans[1].Axes["thread_cpu"]
	if same.S != statusCollected || same.V == nil || *same.V != 250 {
		t.Errorf("same thread: %+v", same)
	}
	if moved.S != statusMigrated || moved.V != nil || moved.R != "began on OS thread 5, finished on OS thread 9" {
		t.Errorf("migrated: %+v", moved)
	}
}

func TestThreadCPUReadFailure(t *testing.T) {
	r, bs, buf := started(t, Options{Axes: ThreadCPU}, "a")
	(&threadScript{tids: []int32{5, 5}, cpus: []int64{1, 2}}).install(r)
	r.sel |= ThreadCPU
	r.Begin(bs[0]).Finish(Success)
	got := stop(t, r, buf)
	if v := got.spans[0].Axes["thread_cpu"]; v.S != statusProbeFailed || v.V != nil {
		t.Errorf("failed read: %+v", v)
	}
}

// The real thing: two goroutines locked to their own OS threads, one
// beginning the span and the other finishing it, make a migrated span; a
// span begun and finished on one locked thread keeps its value.
func TestThreadMigrationReal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is read on Linux only")
	}
	r, bs, buf := started(t, Options{Axes: ThreadCPU}, "a")
	spans := make(chan Span)
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		s := r.Begin(bs[0])
		spin(1e6)
		s.Finish(Success)
		spans <- r.Begin(bs[0])
		<-done
	}()
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		(<-spans).Finish(Failure)
		close(done)
	}()
	<-done
	got := stop(t, r, buf)
	one, two := got.spans[0].Axes["thread_cpu"], got.spans[1].Axes["thread_cpu"]
	if one.S != statusCollected || one.V == nil || *one.V <= 0 {
		t.Errorf("one thread: %+v", one)
	}
	if two.S != statusMigrated || two.V != nil {
		t.Errorf("two threads: %+v", two)
	}
}

var sink atomic.Uint64

// spin does n steps of integer mixing.
func spin(n int) {
	x := uint64(1)
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink.Store(x)
}
