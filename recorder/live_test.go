package recorder

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"slices"
	"sync"
	"testing"
	"time"
)

// With Stream, spans reach Out while the recording runs: the reader sees
// the recording record and every span before Stop is called, then only
// the recording_end record, whose tally counts every span as retained.
func TestStreamDeliversSpansBeforeStop(t *testing.T) {
	client, server := net.Pipe()
	defer server.Close()
	lines := make(chan []byte)
	go func() {
		defer close(lines)
		rd := bufio.NewReader(server)
		for {
			l, err := rd.ReadBytes('\n')
			if err != nil {
				return
			}
			lines <- l
		}
	}()
	r := New(Options{Out: client, Stream: true, Axes: ThreadCPU})
	bs := []*Benchmark{r.Register("a"), r.Register("b")}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		r.Begin(bs[i%2]).Finish(Outcome(i % 3))
	}
	var before bytes.Buffer
	for range 11 { // the recording record and ten spans, while running
		before.Write(<-lines)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- r.Stop(); client.Close() }()
	after := bytes.Clone(before.Bytes())
	for l := range lines {
		after = append(after, l...)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	got := decode(t, after)
	if len(got.spans) != 10 || !bytes.Equal(after[:before.Len()], before.Bytes()) {
		t.Fatalf("%d spans in all, %d bytes before Stop", len(got.spans), before.Len())
	}
	for i, tl := range got.end.Benchmarks {
		if tl.Observed != 5 || tl.Retained != 5 || tl.Omitted != 0 || bs[i].Deferred() != 0 {
			t.Errorf("benchmark %d: %+v, %d deferred", i, tl, bs[i].Deferred())
		}
	}
	if s := got.spans[0]; s.Obs != 1 || s.Outcome != "success" || s.Axes["thread_cpu"].S == "" {
		t.Errorf("first span %+v", s)
	}
}

// gate is a writer that lets the first write through and holds every
// later one until it is opened.
type gate struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
	open   chan struct{}
}

func (g *gate) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.writes
}

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	g.writes++
	first := g.writes == 1
	g.mu.Unlock()
	if !first {
		<-g.open
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.Write(p)
}

// A ring that is full does not hold Finish up, even while Out blocks:
// the spans that find it full are counted as deferred, go to the store
// by the policy, and are written at Stop; the tally counts those the
// store had no room for as omitted.
func TestFullRingDefersSpans(t *testing.T) {
	g := &gate{open: make(chan struct{})}
	r := New(Options{Out: g, Stream: true, StreamBuffer: 4, Capacity: 50, Retention: FirstN})
	r.streamEvery = time.Millisecond
	b := r.Register("a")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	r.Begin(b).Finish(Success)
	for g.count() < 2 { // the writer holds the first span, blocked in Write
		time.Sleep(time.Millisecond)
	}
	for range 300 {
		r.Begin(b).Finish(Success)
	}
	if b.Deferred() != 296 {
		t.Errorf("%d deferred, want 296", b.Deferred())
	}
	close(g.open)
	got := stop(t, r, &g.buf)
	tl := got.end.Benchmarks[0]
	if tl.Observed != 301 || tl.Retained != 5+50 || tl.Omitted != 246 || int64(len(got.spans)) != tl.Retained {
		t.Errorf("%d spans, tally %+v", len(got.spans), tl)
	}
	if obs := obsOf(got.spans, 0); obs[5] != 6 || obs[54] != 55 {
		t.Errorf("the store keeps the first deferred spans: %v", obs)
	}
}

// With the writer held back, exactly the spans beyond the ring are
// deferred, and the reservoir samples among them alone.
func TestDeferredCountIsExact(t *testing.T) {
	for _, capacity := range []int{200, 10} {
		var buf bytes.Buffer
		r := New(Options{Out: &buf, Stream: true, StreamBuffer: 8, Capacity: capacity, Seed: 3})
		r.streamEvery = time.Hour
		b := r.Register("a")
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
		for range 100 {
			r.Begin(b).Finish(Failure)
		}
		if b.Deferred() != 92 {
			t.Errorf("capacity %d: %d deferred, want 92", capacity, b.Deferred())
		}
		got := stop(t, r, &buf)
		kept := int64(min(92, capacity))
		tl := got.end.Benchmarks[0]
		if tl.Observed != 100 || tl.Retained != 8+kept || tl.Omitted != 92-kept || tl.Outcomes["failure"] != 100 ||
			int64(len(got.spans)) != tl.Retained {
			t.Errorf("capacity %d: %d spans, tally %+v", capacity, len(got.spans), tl)
		}
		if obs := obsOf(got.spans, 0); !equalPrefix(obs, []int64{1, 2, 3, 4, 5, 6, 7, 8}) {
			t.Errorf("capacity %d: the ring's spans come first: %v", capacity, obs[:8])
		}
	}
}

func equalPrefix(got, want []int64) bool {
	return len(got) >= len(want) && slices.Equal(got[:len(want)], want)
}

// Without Stream nothing is queued or deferred and the spans come at Stop.
func TestNoStreamWritesAtStop(t *testing.T) {
	r, bs, buf := started(t, Options{}, "a")
	for range 5 {
		r.Begin(bs[0]).Finish(Success)
	}
	if n := bytes.Count(buf.Bytes(), []byte("\n")); n != 1 || bs[0].Deferred() != 0 {
		t.Errorf("%d lines before Stop, %d deferred", n, bs[0].Deferred())
	}
	if got := stop(t, r, buf); len(got.spans) != 5 {
		t.Errorf("%d spans", len(got.spans))
	}
}

// A write error of the stream's writer is Stop's error.
func TestStreamWriteError(t *testing.T) {
	client, server := net.Pipe()
	go io.Copy(io.Discard, server)
	r := New(Options{Out: client, Stream: true})
	b := r.Register("a")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	server.Close()
	r.Begin(b).Finish(Success)
	if err := r.Stop(); err == nil {
		t.Error("Stop succeeded on a closed connection")
	}
}

// The stream's writer formats and writes spans without allocating, with
// every axis: a pass over a filled ring allocates nothing.
func TestStreamWriterAllocatesNothing(t *testing.T) {
	r := New(Options{Out: io.Discard, Stream: true, StreamBuffer: 600, Axes: AllAxes})
	r.streamEvery = time.Hour
	b := r.Register("a")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		for range 500 {
			r.Begin(b).Finish(Success)
		}
		if err := r.stream.pass(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || b.Deferred() != 0 {
		t.Errorf("%v allocations per pass, %d deferred", allocs, b.Deferred())
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
}
