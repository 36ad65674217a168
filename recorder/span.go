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

// perfSnap is one reading of a thread's perf software events, in the
// order of the fields fPerfClock..fPerfFaults.
type perfSnap [nPerf]int64

// Span is one timed piece of work, from Begin to Finish. It is a small
// value: Begin and Finish allocate nothing. Finish a span exactly once;
// the zero Span, and a span begun while the recorder was not running,
// finish without recording anything.
type Span struct {
	b     *Benchmark
	start int64
	tcpu  int64
	proc  procSnap
	perf  perfSnap
	tid   int32
	// tcpuOK, procOK and perfOK say the Begin readings of the optional
	// axes succeeded.
	tcpuOK, procOK, perfOK bool
}

// Begin starts a span of benchmark b: it reads the optional axes (process
// first, then the thread's perf counters, then its CPU clock) and the
// monotonic clock last, so the wall interval holds none of the axis
// reads. The first span with a perf axis on an OS thread opens that
// thread's counters before reading them, so its value is reported too. b must come from this
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
	if r.sel&threadAxes != 0 {
		s.tid = r.gettid()
	}
	if r.sel&PerfAxes != 0 {
		s.perf, s.perfOK = r.perfRead(s.tid)
	}
	if r.sel&ThreadCPU != 0 {
		s.tcpu, s.tcpuOK = r.threadCPU(s.tid)
	}
	s.start = r.now()
	return s
}

// Finish ends the span with outcome o. It reads the monotonic clock
// first, before any axis and before the store's lock: contention for the
// store and the retention policy's work fall outside the wall interval.
// Then it reads the CPU clock and perf counters of the thread that ran
// Begin and the calling thread's id (the values are kept only when they
// are the same thread), then the process's usage, and files the span.
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
	if r.sel&threadAxes != 0 {
		r.finishThread(&s, &p)
	}
	if r.sel&processAxes != 0 {
		r.finishProcess(&s, &p)
	}
	s.b.record(&p)
}

// finishThread sets the per-thread fields of p: values when Begin and
// Finish ran on one thread and the reads at both boundaries succeeded.
func (r *Recorder) finishThread(s *Span, p *row) {
	var cpu int64
	var perf perfSnap
	var cpuOK, perfOK bool
	if r.sel&ThreadCPU != 0 {
		cpu, cpuOK = r.threadCPU(s.tid)
	}
	if r.sel&PerfAxes != 0 {
		perf, perfOK = r.perfRead(s.tid)
	}
	p.tid0, p.tid1 = s.tid, r.gettid()
	if r.sel&ThreadCPU != 0 {
		threadValue(p, fThreadCPU, cpu-s.tcpu, cpuOK && s.tcpuOK)
	}
	if r.sel&PerfAxes != 0 {
		for i := range nPerf {
			threadValue(p, fPerfClock+i, perf[i]-s.perf[i], perfOK && s.perfOK)
		}
	}
}

// threadValue sets per-thread field f of p to v, or to a status when the
// span migrated or a read failed.
func threadValue(p *row, f int, v int64, ok bool) {
	switch {
	case p.tid0 != p.tid1:
		p.status[f] = valMigrated
	case !ok:
		p.status[f] = valProbeFailed
	default:
		p.vals[f] = v
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
