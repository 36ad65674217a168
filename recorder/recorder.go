package recorder

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// DefaultCapacity is the number of spans a benchmark keeps when
// Options.Capacity is 0.
const DefaultCapacity = 10000

// Options configure a Recorder; the zero value records wall time only,
// keeps a reservoir of DefaultCapacity spans per benchmark with a random
// seed, and writes to standard output.
type Options struct {
	// Out receives the stream: a file, a descriptor (os.NewFile), or a
	// connection to fb-record's socket. Nil means os.Stdout. The
	// recorder writes the recording record at Start and everything else
	// at Stop, or with Stream the spans while it runs; it never closes
	// Out.
	Out io.Writer
	// Stream writes every finished span while the recording runs, so
	// that fb-record's live display shows it: Finish queues the span in
	// its benchmark's ring and a goroutine writes the rings to Out every
	// 20 ms. A span that finds its ring full is offered to the store
	// instead, by the retention policy, and written at Stop if kept.
	// The output is then unbounded (every span, less what the policy
	// omits of the overflow), which suits a connection to fb-record,
	// whose own retention applies. It is off unless set, whatever Out is.
	Stream bool
	// StreamBuffer is the size of each benchmark's ring with Stream; 0
	// means DefaultStreamBuffer.
	StreamBuffer int
	// Retention is the policy of every benchmark's store.
	Retention Policy
	// Capacity is the number of spans each benchmark keeps.
	Capacity int
	// Seed seeds the reservoir; 0 draws one at Start. The recording
	// record carries it, so a recording can be reproduced.
	Seed uint64
	// Axes are the optional axes to read at each span's boundaries.
	Axes Axis
	// Tags are free-form labels the recording record carries.
	Tags map[string]string
}

// Recorder states.
const (
	stateNew = iota
	stateRunning
	stateStopped
)

// Recorder times spans of registered benchmarks and writes them as a
// recording (man fb-stream(5)). Register, Start and Stop are called once
// each, from one goroutine; Begin and Finish from any number at once.
type Recorder struct {
	opts       Options
	out        io.Writer
	sel        Axis       // the requested axes this platform can read
	axes       []axisDesc // the requested axes, in the spans' order
	benchmarks []*Benchmark
	state      atomic.Int32
	t0         time.Time
	runID      string
	seed       uint64
	stream     *streamer // the writer while running with Stream
	// streamEvery is the writer's interval; tests lengthen it.
	streamEvery time.Duration

	// The boundary readings; tests replace them. They take no pointers,
	// so that calling them through a variable lets nothing escape.
	now       func() int64
	gettid    func() int32
	threadCPU func(int32) (int64, bool)
	rusage    func() (procSnap, bool)
	perfRead  func(int32) (perfSnap, bool)
	// perfProbe opens the starting thread's counters at Start and says
	// the perf axes' status; perfStatus and perfReason keep its answer.
	perfProbe              func() (string, string)
	perfStatus, perfReason string
}

// New makes a recorder with the given options. It panics on a negative
// capacity or an unknown policy, as it does on any misuse before Start.
func New(opts Options) *Recorder {
	if opts.Capacity < 0 {
		panic(fmt.Sprintf("recorder: capacity %d: use a positive number, or 0 for %d", opts.Capacity, DefaultCapacity))
	}
	if opts.StreamBuffer < 0 {
		panic(fmt.Sprintf("recorder: stream buffer %d: use a positive number, or 0 for %d", opts.StreamBuffer, DefaultStreamBuffer))
	}
	if opts.Retention > LatestN {
		panic(fmt.Sprintf("recorder: unknown retention policy %d", opts.Retention))
	}
	if opts.Capacity == 0 {
		opts.Capacity = DefaultCapacity
	}
	if opts.StreamBuffer == 0 {
		opts.StreamBuffer = DefaultStreamBuffer
	}
	r := &Recorder{opts: opts, out: opts.Out, sel: supported(opts.Axes), axes: requested(opts.Axes), streamEvery: streamInterval,
		gettid: gettid, threadCPU: threadCPU, rusage: readRusage, perfRead: perfRead, perfProbe: perfProbe}
	if r.out == nil {
		r.out = os.Stdout
	}
	r.now = func() int64 { return int64(time.Since(r.t0)) }
	return r
}

// supported is the part of sel this platform can read.
func supported(sel Axis) Axis {
	if threadReason != "" {
		sel &^= ThreadCPU
	}
	if rusageReason != "" {
		sel &^= processAxes
	}
	if perfReason != "" {
		sel &^= PerfAxes
	}
	return sel
}

// Register adds a benchmark called name and allocates its store (and
// with Stream its ring). Call it
// before Start; it panics on an empty or repeated name, or after Start.
func (r *Recorder) Register(name string) *Benchmark {
	if r.state.Load() != stateNew {
		panic(fmt.Sprintf("recorder: Register(%q) after Start", name))
	}
	if name == "" {
		panic("recorder: Register with an empty name")
	}
	for _, b := range r.benchmarks {
		if b.name == name {
			panic(fmt.Sprintf("recorder: benchmark %q registered twice", name))
		}
	}
	b := &Benchmark{rec: r, index: len(r.benchmarks), name: name, policy: r.opts.Retention,
		rows: make([]row, r.opts.Capacity)}
	if r.opts.Stream {
		b.queue.rows = make([]row, r.opts.StreamBuffer)
	}
	b.begun.Store(closedBit)
	r.benchmarks = append(r.benchmarks, b)
	return b
}

// Start writes the recording record, starts the stream's writer with
// Stream, and opens every benchmark to spans. Spans begun before Start
// are not recorded.
func (r *Recorder) Start() error {
	if !r.state.CompareAndSwap(stateNew, stateRunning) {
		return errors.New("recorder: Start called twice")
	}
	if err := r.open(); err != nil {
		r.state.Store(stateStopped)
		return err
	}
	r.t0 = time.Now()
	if r.opts.Stream {
		r.startStream(r.streamEvery)
	}
	for _, b := range r.benchmarks {
		b.begun.Store(0)
	}
	return nil
}

// open draws the ids, probes the perf axes and writes the recording
// record.
func (r *Recorder) open() error {
	if err := r.prepare(); err != nil {
		return err
	}
	r.probePerf()
	rec, err := r.header()
	if err != nil {
		return err
	}
	if _, err := r.out.Write(rec); err != nil {
		return fmt.Errorf("recorder: write the recording record: %w", err)
	}
	return nil
}

// prepare draws the run id and, unless given, the seed, and seeds every
// benchmark's reservoir from it.
func (r *Recorder) prepare() error {
	var err error
	if r.runID, err = newUUID(); err != nil {
		return err
	}
	r.seed = r.opts.Seed
	if r.seed == 0 {
		if r.seed, err = randomSeed(); err != nil {
			return err
		}
	}
	for _, b := range r.benchmarks {
		b.rng = splitmix{r.seed ^ uint64(b.index)*0x9e3779b97f4a7c15}
	}
	return nil
}

// probePerf decides the perf axes' status once, by opening the calling
// thread's counters; when that fails no span reads them.
func (r *Recorder) probePerf() {
	r.perfStatus, r.perfReason = statusUnsupported, perfReason
	if r.opts.Axes&PerfAxes == 0 {
		return
	}
	if r.sel&PerfAxes != 0 {
		r.perfStatus, r.perfReason = r.perfProbe()
	}
	if r.perfStatus != statusCollected {
		r.sel &^= PerfAxes
	}
}

// Stop ends the recording: spans begun and not yet finished are counted
// as unfinished (a Finish after Stop records nothing); with Stream the
// writer empties the rings and stops. Then the spans the store retained,
// by benchmark and observation number, and the recording_end record are
// written and flushed.
func (r *Recorder) Stop() error {
	if !r.state.CompareAndSwap(stateRunning, stateStopped) {
		return errors.New("recorder: Stop without a running recording")
	}
	elapsed := r.now()
	for _, b := range r.benchmarks {
		b.close()
	}
	if r.stream != nil {
		if err := r.stream.finish(); err != nil {
			return err
		}
	}
	w := bufio.NewWriterSize(r.out, 64<<10)
	buf := make([]byte, 0, 512)
	for _, b := range r.benchmarks {
		for _, p := range b.retained() {
			buf = r.appendSpan(buf[:0], b.index, &p)
			if _, err := w.Write(buf); err != nil {
				return fmt.Errorf("recorder: write spans: %w", err)
			}
		}
	}
	if _, err := w.Write(r.appendEnd(buf[:0], elapsed)); err != nil {
		return fmt.Errorf("recorder: write the recording_end record: %w", err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("recorder: write the recording: %w", err)
	}
	return nil
}
