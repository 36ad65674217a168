package recorder

import (
	"bufio"
	"fmt"
	"time"
)

// DefaultStreamBuffer is the number of finished spans each benchmark's
// stream ring holds when Options.StreamBuffer is 0.
const DefaultStreamBuffer = 4096

// streamInterval is how often the stream's writer empties the rings.
const streamInterval = 20 * time.Millisecond

// streamChunk is the most spans the writer takes from a ring under one
// hold of the benchmark's lock.
const streamChunk = 256

// ring is a benchmark's bounded queue of finished spans waiting for the
// stream's writer, allocated by Register. The benchmark's lock guards it;
// a ring of no capacity (streaming off) accepts nothing.
type ring struct {
	rows []row
	head int // the oldest row
	n    int // rows queued
}

// push queues a copy of p, or reports false when the ring is full.
func (q *ring) push(p *row) bool {
	if q.n == len(q.rows) {
		return false
	}
	q.rows[(q.head+q.n)%len(q.rows)] = *p
	q.n++
	return true
}

// take moves the oldest rows, as many as dst holds, into dst and returns
// how many it moved.
func (q *ring) take(dst []row) int {
	k := min(q.n, len(dst))
	for i := range k {
		dst[i] = q.rows[(q.head+i)%len(q.rows)]
	}
	q.head = (q.head + k) % max(len(q.rows), 1)
	q.n -= k
	return k
}

// streamer is the goroutine that writes the rings to Out while the
// recording runs. Its buffers are allocated once, so writing allocates
// nothing.
type streamer struct {
	r     *Recorder
	w     *bufio.Writer
	chunk []row
	buf   []byte
	stop  chan struct{}
	done  chan error
}

// startStream starts the writer; Start calls it after the recording
// record is written.
func (r *Recorder) startStream(every time.Duration) {
	s := &streamer{r: r, w: bufio.NewWriterSize(r.out, 64<<10), chunk: make([]row, streamChunk),
		buf: make([]byte, 0, 512), stop: make(chan struct{}), done: make(chan error, 1)}
	r.stream = s
	go s.run(every)
}

// run writes what the rings hold every interval until stop is closed,
// then once more (the benchmarks are closed by then, so that pass leaves
// the rings empty), and reports the first write error.
func (s *streamer) run(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			s.done <- s.pass()
			return
		case <-t.C:
			if err := s.pass(); err != nil {
				s.done <- err
				return
			}
		}
	}
}

// pass writes every ring's spans, benchmark by benchmark, and flushes.
func (s *streamer) pass() error {
	for _, b := range s.r.benchmarks {
		for {
			b.mu.Lock()
			k := b.queue.take(s.chunk)
			b.mu.Unlock()
			if k == 0 {
				break
			}
			for i := range k {
				s.buf = s.r.appendSpan(s.buf[:0], b.index, &s.chunk[i])
				if _, err := s.w.Write(s.buf); err != nil {
					return fmt.Errorf("recorder: stream spans: %w", err)
				}
			}
		}
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("recorder: stream spans: %w", err)
	}
	return nil
}

// finish stops the writer after its last pass and returns its error.
func (s *streamer) finish() error {
	close(s.stop)
	return <-s.done
}

// Deferred is the number of b's spans that finished while its stream
// ring was full (Options.Stream): the store took them by the retention
// policy, and Stop writes those it kept. It is 0 without Stream.
func (b *Benchmark) Deferred() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue.rows) == 0 {
		return 0
	}
	return b.filed
}
