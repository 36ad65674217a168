package recorder

// Outcome is how a span ended.
type Outcome uint8

const (
	Success Outcome = iota
	Failure
	Timeout
	Cancelled
	nOutcomes
)

// outcomeNames are the outcomes as the stream spells them.
var outcomeNames = [nOutcomes]string{"success", "failure", "timeout", "cancelled"}

// String is the outcome's name in the stream.
func (o Outcome) String() string {
	if o < nOutcomes {
		return outcomeNames[o]
	}
	return "invalid"
}

// procSnap is one getrusage reading: the cumulative counters and the
// peak resident set in bytes.
type procSnap struct {
	c   [nCounters]int64
	rss int64
}

// Span is one timed piece of work, from Begin to Finish. It is a small
// value: Begin and Finish allocate nothing. Finish a span exactly once;
// the zero Span, and a span begun while the recorder was not running,
// finish without recording anything.
type Span struct {
	b     *Benchmark
	start int64
	tcpu  int64
	proc  procSnap
	tid   int32
	// tcpuOK and procOK say the Begin readings of the optional axes
	// succeeded.
	tcpuOK, procOK bool
}

// Begin starts a span of benchmark b: it reads the optional axes (process
// first, then the thread's CPU clock) and the monotonic clock last, so
// the wall interval holds none of the axis reads. b must come from this
// recorder's Register.
func (r *Recorder) Begin(b *Benchmark) Span {
	if b.rec != r {
		panic("recorder: Begin with a benchmark registered on another recorder")
	}
	if b.begun.Add(1)&closedBit != 0 {
		return Span{}
	}
	s := Span{b: b}
	if r.sel&processAxes != 0 {
		s.proc, s.procOK = r.rusage()
	}
	if r.sel&ThreadCPU != 0 {
		s.tid = r.gettid()
		s.tcpu, s.tcpuOK = r.threadCPU(s.tid)
	}
	s.start = r.now()
	return s
}

// Finish ends the span with outcome o. It reads the monotonic clock
// first, before any axis and before the store's lock: contention for the
// store and the retention policy's work fall outside the wall interval.
// Then it reads the CPU clock of the thread that ran Begin and the
// calling thread's id (the value is kept only when they are the same
// thread), then the process's usage, and files the span.
func (s Span) Finish(o Outcome) {
	if s.b == nil {
		return
	}
	r := s.b.rec
	end := r.now()
	if o >= nOutcomes {
		panic("recorder: Finish with an invalid outcome")
	}
	p := row{start: s.start, wall: end - s.start, outcome: o}
	if r.sel&ThreadCPU != 0 {
		r.finishThread(&s, &p)
	}
	if r.sel&processAxes != 0 {
		r.finishProcess(&s, &p)
	}
	s.b.record(&p)
}

// finishThread sets the thread CPU field of p: a value when Begin and
// Finish ran on one thread and both clock reads succeeded.
func (r *Recorder) finishThread(s *Span, p *row) {
	cpu, ok := r.threadCPU(s.tid)
	p.tid0, p.tid1 = s.tid, r.gettid()
	switch {
	case p.tid0 != p.tid1:
		p.status[fThreadCPU] = valMigrated
	case !ok || !s.tcpuOK:
		p.status[fThreadCPU] = valProbeFailed
	default:
		p.vals[fThreadCPU] = cpu - s.tcpu
	}
}

// finishProcess sets the process fields of p: differences of the
// cumulative counters and the peak resident set at Finish.
func (r *Recorder) finishProcess(s *Span, p *row) {
	e, ok := r.rusage()
	if !ok || !s.procOK {
		for f := fProcCPU; f <= fRSS; f++ {
			p.status[f] = valProbeFailed
		}
		return
	}
	for i := range nCounters {
		p.vals[fProcCPU+i] = e.c[i] - s.proc.c[i]
	}
	p.vals[fRSS] = e.rss
}
