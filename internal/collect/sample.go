package collect

import (
	"errors"
	"time"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

var (
	errNotSelfTimed = errors.New("the operation does not report its own time")
	errNotCPUTimed  = errors.New("the operation does not measure its CPU time")
)

// job is one planned unit: its index and the order its cases run in.
type job struct {
	unit  int
	order []int
}

// sampler is the state of the sampling phase.
type sampler struct {
	e      *Engine
	iters  []int64
	end    *ndjson.End
	began  int64
	paused int64 // time spent paused, excluded from the sampling budget
	seq    int
	total  int
	tele   *ndjson.Telemetry
	win    *window // the open watch window; nil when nothing watches
	nwin   int     // windows closed so far
	checks int     // units judged by Check
	// kept holds the kept samples of a run with a stopping rule, for its
	// looks; lookErr is a look that failed.
	kept    []ndjson.Sample
	lookErr error
	rot     *rotation // nil unless the run rotates its processes
	lanes   [2]*lane  // a duet run's lanes, one per CPU (duet.go)
}

// sample collects the timed batches. A unit's samples are written together
// once the whole unit is complete, so an interrupted run never leaves half a
// pair or half a round in the stream; with the watch on, they wait for the
// window holding them to be judged.
func (e *Engine) sample(iters []int64, end *ndjson.End) error {
	s := &sampler{e: e, iters: iters, end: end, began: e.Clock.Now(), total: e.unitsPlanned(), seq: e.seqBase}
	defer func() { end.SamplingNS += e.Clock.Now() - s.began }()
	if e.Config.Design(len(e.Cases)) == ndjson.DesignSequential {
		return s.sequential()
	}
	if e.Duet != nil {
		lanes, stop, err := startLanes(e.Duet)
		if err != nil {
			return &FailedError{Case: e.Names.Spell(DuetLanes), Err: err}
		}
		defer stop()
		s.lanes = lanes
	}
	s.startRotation()
	err := s.paired()
	if rerr := s.endRotation(); err == nil {
		err = rerr
	}
	return err
}

// paired collects the pairs or rounds of the plan, to its end, its
// budget or its stopping rule.
func (s *sampler) paired() error {
	e := s.e
	plan := e.plan().Units
	jobs := make([]job, len(plan))
	for u, order := range plan {
		jobs[u] = job{unit: e.unitBase + u, order: order}
	}
	defer func() { e.unitBase, e.seqBase = e.unitBase+len(plan), s.seq }()
	budget := int64(e.Config.MaxSampling)
	if e.Config.Until.Rule != "" {
		return s.until(jobs, budget)
	}
	_, err := s.drive(jobs, func(int) bool { return s.overBudget(s.began, budget) })
	return err
}

// until collects under a stopping rule: the looks decide when to stop,
// within --max-time (and --max-sampling-time), and a run that did not
// settle makes a final look at its limit.
func (s *sampler) until(jobs []job, budget int64) error {
	if s.e.Judge == nil {
		return errors.New("a stopping rule needs a judge")
	}
	l := newLooker(s)
	_, err := s.drive(jobs, func(i int) bool {
		if s.overBudget(s.began, budget) {
			l.outcome.Reason = ndjson.UntilTime
			return true
		}
		return l.stop(i)
	})
	if err == nil {
		err = s.lookErr
	}
	if err != nil {
		return err
	}
	return l.finish(s.end)
}

// sequential collects each case's block in turn. The sampling budget is
// divided among the cases; once one case stops early, later cases stop at
// the same count, since only the count every case completed is comparable.
func (s *sampler) sequential() error {
	e := s.e
	k, n := len(e.Cases), e.Config.Samples
	budget := int64(e.Config.MaxSampling) / int64(k)
	limit := n
	for c := 0; c < k; c++ {
		jobs := make([]job, limit)
		for i := range jobs {
			jobs[i] = job{unit: i, order: []int{c}}
		}
		began, pausedBefore := e.Clock.Now(), s.paused
		kept := s.end.Samples[c]
		done, err := s.drive(jobs, func(int) bool {
			return s.end.Samples[c]-kept >= minKeepUnits && budget > 0 &&
				e.Clock.Now()-began-(s.paused-pausedBefore) >= budget
		})
		if err != nil {
			return err
		}
		limit = done
	}
	s.end.Units = limit
	return nil
}

// overBudget reports whether the sampling budget has run out. Paused time
// does not count, and the first minKeepUnits kept units always run.
func (s *sampler) overBudget(began, budget int64) bool {
	return budget > 0 && s.end.Units >= minKeepUnits && s.e.Clock.Now()-began-s.paused >= budget
}

// drive runs jobs in order until they are done or stop says so, windowing
// them when the watch is on, and returns how many were kept. A window the
// watch discards is collected again from its first job.
func (s *sampler) drive(jobs []job, stop func(i int) bool) (int, error) {
	e := s.e
	for i := 0; i < len(jobs); {
		if e.stopped.Load() {
			return i, s.abandon(ErrInterrupted)
		}
		if stop(i) {
			s.end.Reason = ndjson.EndBudget
			return i, s.flushOpen()
		}
		if err := s.rotate(); err != nil {
			return i, s.abandon(err)
		}
		recs, err := s.runUnit(jobs[i])
		if err != nil {
			return i, s.abandon(err)
		}
		if s.rot != nil {
			s.rot.units++
		}
		i++
		if !s.watching() {
			if err := s.keep(recs); err != nil {
				return i, err
			}
			continue
		}
		s.win.add(jobs[i-1], recs)
		if s.win.due(e.Clock.Now()) || i == len(jobs) {
			redo, err := s.closeWindow()
			if err != nil {
				return i, err
			}
			i -= redo
		}
	}
	return len(jobs), nil
}

// runUnit runs one sample, pair or round and returns its samples.
func (s *sampler) runUnit(j job) ([]ndjson.Sample, error) {
	e := s.e
	if e.Duet != nil {
		return s.checked(s.runDuet(j))
	}
	if s.watching() && s.win == nil {
		s.openWindow(j.unit)
	}
	pad, err := e.padUnit(j)
	if err != nil {
		return nil, err
	}
	recs := make([]ndjson.Sample, 0, len(j.order))
	for pos, c := range j.order {
		e.report(s.status(c))
		n := e.unitSize(j.unit, s.iters[c])
		rec := ndjson.Sample{Case: c, Unit: j.unit, Pos: pos, Seq: s.seq + len(recs), Iter: n, Proc: e.proc, LayoutPad: pad}
		ns, err := e.runBatch(c, n, &rec)
		if err != nil {
			return nil, err
		}
		rec.WallNS, rec.OpNS = ns, opTime(ns, e.Run.Clock.SubtractNS, n)
		if err := e.primaryTime(c, &rec); err != nil {
			return nil, err
		}
		s.tele = rec.Tele
		recs = append(recs, rec)
	}
	s.seq += len(recs)
	return s.checked(recs, nil)
}

// checked judges the run's first complete unit by Check, when set.
func (s *sampler) checked(recs []ndjson.Sample, err error) ([]ndjson.Sample, error) {
	if err != nil || s.checks > 0 || s.e.Check == nil {
		return recs, err
	}
	s.checks++
	if err := s.e.Check(recs); err != nil {
		s.keep(recs)
		return nil, &RequirementError{Err: err}
	}
	return recs, nil
}

// keep writes a unit's samples and counts them.
func (s *sampler) keep(recs []ndjson.Sample) error {
	for i := range recs {
		if err := s.e.Out.Write(&recs[i]); err != nil {
			return err
		}
		if s.e.Config.Until.Rule != "" {
			s.kept = append(s.kept, recs[i])
		}
		s.end.Samples[recs[i].Case]++
	}
	s.end.Units++
	return nil
}

func (s *sampler) status(c int) Status {
	done := s.end.Units
	if s.win != nil {
		done += len(s.win.jobs)
	}
	st := Status{Phase: PhaseSampling, Case: s.e.Cases[c].Name, Done: done, Total: s.total, Tele: s.tele}
	switch p := s.e.planned; {
	case done > 0:
		per := float64(s.e.Clock.Now()-s.began-s.paused) / float64(done)
		st.ETA = time.Duration(per * float64(s.total-done))
	case p.unit > 0:
		st.ETA = time.Duration(s.total+s.restarts()) * p.unit
		st.Note = p.note(s.e.Config.Samples, s.total, st.ETA, s.e.Config.Measurement, s.e.Names)
	}
	return st
}

// restarts is how many process blocks the sampling will start after its
// first: each runs one untimed batch of every case, about a unit.
func (s *sampler) restarts() int {
	if s.rot == nil || s.rot.every <= 0 || s.total == 0 {
		return 0
	}
	return (s.total - 1) / s.rot.every
}

// opTime is the per-operation time of a batch, after the optional timer-cost
// subtraction. It never goes below zero.
func opTime(ns int64, subtract float64, n int64) float64 {
	return max(float64(ns)-subtract, 0) / float64(n)
}

// primaryTime takes the sample's time from the run's primary timer when it
// is not the harness's wall clock.
func (e *Engine) primaryTime(c int, rec *ndjson.Sample) error {
	switch {
	case e.CPUTimer:
		return cpuTime(e.Cases[c], rec)
	case e.SelfTimer:
		return selfTime(e.Cases[c], rec)
	}
	return nil
}

// cpuTime takes the sample's time from the CPU time its batch used and
// keeps its wall time per operation as the axis "wall".
func cpuTime(c Case, rec *ndjson.Sample) error {
	ct, ok := c.Op.(CPUTimed)
	if !ok {
		return &FailedError{Case: c.Name, Err: errNotCPUTimed}
	}
	ns, err := ct.CPUTime()
	if err != nil {
		return &FailedError{Case: c.Name, Err: err}
	}
	if rec.Axes == nil {
		rec.Axes = make(map[string]ndjson.AxisValue, 1)
	}
	rec.Axes[axes.Wall] = ndjson.Collected(rec.OpNS)
	rec.CPUNS, rec.OpNS = &ns, float64(ns)/float64(rec.Iter)
	return nil
}

// selfTime takes the sample's time from the operation's own report.
func selfTime(c Case, rec *ndjson.Sample) error {
	st, ok := c.Op.(SelfTimed)
	if !ok {
		return &FailedError{Case: c.Name, Err: errNotSelfTimed}
	}
	ns, err := st.SelfElapsed()
	if err != nil {
		return &FailedError{Case: c.Name, Err: err}
	}
	rec.SelfNS, rec.OpNS = &ns, ns/float64(rec.Iter)
	return nil
}
