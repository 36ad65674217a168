package recorder

import (
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Spans begun and not finished by Stop are counted as unfinished; their
// late Finish records nothing, and spans begun outside the recording are
// not counted at all.
func TestUnfinishedSpans(t *testing.T) {
	var buf strings.Builder
	r := New(Options{Out: &buf, Retention: FirstN})
	a, b := r.Register("a"), r.Register("b")
	early := r.Begin(a) // before Start: not recorded
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	var open []Span
	for i := range 5 {
		s := r.Begin(a)
		if i < 2 {
			s.Finish(Success)
		} else {
			open = append(open, s)
		}
	}
	r.Begin(b)
	early.Finish(Success)
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, s := range open {
		s.Finish(Failure)
	}
	r.Begin(a).Finish(Success)
	got := decode(t, []byte(buf.String()))
	ta, tb := got.end.Benchmarks[0], got.end.Benchmarks[1]
	if ta.Observed != 2 || ta.Unfinished != 3 || ta.Retained != 2 || ta.Outcomes["failure"] != 0 {
		t.Errorf("a: %+v", ta)
	}
	if tb.Observed != 0 || tb.Unfinished != 1 || tb.Retained != 0 {
		t.Errorf("b: %+v", tb)
	}
	if a.observed != 2 {
		t.Errorf("a Finish after Stop was recorded: %d observed", a.observed)
	}
	var zero Span
	zero.Finish(Success) // the zero Span finishes without recording
}

func TestMisuse(t *testing.T) {
	r := New(Options{Out: io.Discard})
	a := r.Register("a")
	if err := r.Stop(); err == nil {
		t.Error("Stop before Start: no error")
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(); err == nil {
		t.Error("second Start: no error")
	}
	other := New(Options{Out: io.Discard}).Register("a")
	for name, f := range map[string]func(){
		"register after start": func() { r.Register("b") },
		"foreign benchmark":    func() { r.Begin(other) },
		"bad outcome":          func() { r.Begin(a).Finish(Outcome(9)) },
		"duplicate":            func() { n := New(Options{}); n.Register("x"); n.Register("x") },
		"empty name":           func() { New(Options{}).Register("") },
		"negative capacity":    func() { New(Options{Capacity: -1}) },
		"unknown policy":       func() { New(Options{Retention: 7}) },
	} {
		func() {
			defer func() {
				if v := recover(); v == nil || !strings.HasPrefix(v.(string), "recorder: ") {
					t.Errorf("%s: panic %v, want a recorder: message", name, v)
				}
			}()
			f()
		}()
	}
}

type failWriter struct{ after int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.after--; w.after < 0 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	r := New(Options{Out: &failWriter{}})
	if err := r.Start(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Start: %v", err)
	}
	r = New(Options{Out: &failWriter{after: 1}})
	r.Register("a")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	if err := r.Stop(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Stop: %v", err)
	}
}

// 64 goroutines begin and finish spans of three benchmarks at once: every
// span is counted once, under its benchmark and outcome, and the retained
// rows are distinct observations in order.
func TestConcurrentSpans(t *testing.T) {
	const goroutines, each = 64, 300
	r, bs, buf := started(t, Options{Capacity: 100, Seed: 3, Axes: ThreadCPU | ProcessCPU}, "a", "b", "c")
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				s := r.Begin(bs[(g+i)%3])
				if i%50 == 0 {
					spin(1000)
				}
				s.Finish(Outcome(i % 4))
			}
		})
	}
	wg.Wait()
	got := stop(t, r, buf)
	var total, outcomes int64
	for i, e := range got.end.Benchmarks {
		total += e.Observed
		for _, n := range e.Outcomes {
			outcomes += n
		}
		if e.Retained != 100 || e.Omitted != e.Observed-100 || e.Unfinished != 0 {
			t.Errorf("benchmark %d: %+v", i, e)
		}
		obs := obsOf(got.spans, i)
		for j := 1; j < len(obs); j++ {
			if obs[j] <= obs[j-1] || obs[j] > e.Observed {
				t.Errorf("benchmark %d: observations %d then %d of %d", i, obs[j-1], obs[j], e.Observed)
			}
		}
	}
	if total != goroutines*each || outcomes != total {
		t.Errorf("observed %d, outcomes %d, want %d", total, outcomes, goroutines*each)
	}
}

// Stop while 8 goroutines begin and finish spans and 8 more each hold
// one open: every span Begin recorded is either observed or unfinished,
// never lost or counted twice, and the 8 held spans are unfinished.
func TestStopDuringSpans(t *testing.T) {
	r, bs, buf := started(t, Options{Capacity: 10}, "a")
	var begun atomic.Int64
	var wg, parked sync.WaitGroup
	stopped := make(chan struct{})
	for g := range 16 {
		parked.Add(g % 2)
		wg.Go(func() {
			for i := 0; ; i++ {
				s := r.Begin(bs[0])
				if s.b != nil {
					begun.Add(1)
				}
				if g%2 == 1 && i == 100 {
					parked.Done()
					<-stopped
				}
				s.Finish(Success)
				if s.b == nil {
					return
				}
			}
		})
	}
	parked.Wait()
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	close(stopped)
	wg.Wait()
	e := decode(t, buf.Bytes()).end.Benchmarks[0]
	if e.Observed+e.Unfinished != begun.Load() || e.Unfinished < 8 || e.Observed < 800 {
		t.Errorf("observed %d + unfinished %d, recorded %d", e.Observed, e.Unfinished, begun.Load())
	}
}
