package collect

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Duet runs the two cases of every pair at the same time, each on its own
// CPU, so interference that hits the machine during a pair hits both of
// its sides (Config.Duet). Each CPU has a lane: a goroutine locked to an
// OS thread bound to that CPU, which runs the batches placed there, so
// the processes a batch starts inherit the binding. The sides swap CPUs
// every pair with the pair's leader (its first position), which starts a
// moment before the other.
type Duet struct {
	// CPUs are the two logical CPUs, one per lane.
	CPUs [2]int
	// Bind binds the calling OS thread to cpu; each lane calls it once,
	// locked to its thread, before its first batch.
	Bind func(cpu int) error
	// Place, when set, moves case c's long-lived process to cpu before a
	// batch of it runs there (a worker, which does not inherit the lane's
	// binding); nil when every batch starts its own processes.
	Place func(c, cpu int) error
}

// lane is one CPU's goroutine: it runs the functions sent to it.
type lane struct {
	work chan func()
}

// startLanes starts one lane per duet CPU, each bound to its CPU, and
// returns them with a function that ends them. The lanes' threads are
// never unlocked: they exit with their goroutines rather than go back to
// the runtime bound to one CPU.
func startLanes(d *Duet) ([2]*lane, func(), error) {
	// A spinning follower holds a P, each lane's goroutine needs one to
	// start its processes, and the collecting goroutine one to hand out
	// the next pair: never let them queue for a P.
	procs := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(max(procs, 4))
	var lanes [2]*lane
	errs := make(chan error, 2)
	for i := range lanes {
		l := &lane{work: make(chan func())}
		lanes[i] = l
		go func(cpu int) {
			runtime.LockOSThread()
			if err := d.Bind(cpu); err != nil {
				errs <- fmt.Errorf("duet: bind a lane to cpu %d: %w", cpu, err)
				return
			}
			errs <- nil
			for f := range l.work {
				f()
			}
		}(d.CPUs[i])
	}
	var err error
	for range lanes {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	stop := func() {
		for _, l := range lanes {
			close(l.work)
		}
		runtime.GOMAXPROCS(procs)
	}
	if err != nil {
		stop()
		return lanes, func() {}, err
	}
	return lanes, stop, nil
}

// laneOf is the lane (CPU index) of a pair's position: the leader runs
// on the first CPU. The duet's schedule alternates the leader every pair
// (schedule.Alternating), so the sides swap CPUs every pair, and the
// order effect the analysis estimates and takes out includes the two
// CPUs' difference.
func laneOf(pos int) int { return pos }

// duetRun is what one side of a duet pair did.
type duetRun struct {
	ns         int64
	err        error
	start, end int64 // the harness's clock around the batch
	busy       int64 // when its company for the other side ended (>= end)
	// rec holds the batch's times, taken before the company ran
	rec     ndjson.Sample
	timeErr error
}

// runDuet runs a pair's two batches at once, one per lane: the prepare
// hooks and placements first, in the pair's order, then the leader and
// the follower behind a barrier, then the conclude hooks. Both batches
// complete before either is judged; the sample of each records its CPU
// and the share of its wall time the other side overlapped.
func (s *sampler) runDuet(j job) ([]ndjson.Sample, error) {
	e := s.e
	if s.watching() && s.win == nil {
		s.openWindow(j.unit)
	}
	pad, err := e.padUnit(j)
	if err != nil {
		return nil, err
	}
	sizes := make([]int64, len(j.order))
	for pos, c := range j.order {
		sizes[pos] = e.unitSize(j.unit, s.iters[c])
		if err := e.prepareDuet(c, laneOf(pos)); err != nil {
			return nil, err
		}
	}
	e.report(s.status(j.order[0]))
	runs := s.duetBatches(j, sizes)
	var recs []ndjson.Sample
	for pos, c := range j.order {
		r := runs[pos]
		if r.err != nil {
			return nil, e.failure(e.Cases[c].Name, r.err)
		}
		if e.stopped.Load() {
			return nil, ErrInterrupted
		}
		cpu := e.Duet.CPUs[laneOf(pos)]
		if r.timeErr != nil {
			return nil, r.timeErr
		}
		rec := r.rec
		rec.Case, rec.Unit, rec.Pos, rec.Seq, rec.Proc, rec.LayoutPad, rec.CPU = c, j.unit, pos, s.seq+pos, e.proc, pad, &cpu
		ov := overlap(r, runs[1-pos])
		rec.Overlap = &ov
		recs = append(recs, rec)
	}
	for _, c := range j.order {
		if e.Hooks.Conclude != nil {
			if err := e.Hooks.Conclude(c); err != nil {
				return nil, e.failure(e.Names.Spell(HookConclude), err)
			}
		}
	}
	s.seq += len(recs)
	return recs, nil
}

// prepareDuet runs case c's prepare hook, sets its run limit and places
// its process on the lane's CPU.
func (e *Engine) prepareDuet(c, ln int) error {
	if e.Hooks.Prepare != nil {
		if err := e.Hooks.Prepare(c); err != nil {
			return e.failure(e.Names.Spell(HookPrepare), err)
		}
	}
	e.limitRuns(c)
	if e.Duet.Place != nil {
		if err := e.Duet.Place(c, e.Duet.CPUs[ln]); err != nil {
			return &FailedError{Case: e.Cases[c].Name, Err: fmt.Errorf("duet: %w", err)}
		}
	}
	return nil
}

// duetBatches runs the pair's batches on their lanes and waits for both.
// The follower's lane is given its batch first and spins on the start
// flag on its own CPU; the leader's lane raises the flag as it starts its
// batch, so the follower starts within a moment of the leader without a
// wake-up through the scheduler on its path (which could take
// milliseconds on a busy machine). A side whose batch ends first keeps
// the other company with untimed single operations of its own until the
// other ends: neither timed batch runs its tail alone, which would make
// the longer side look faster than next to its co-runner (without the
// company, on this project's two-vCPU machine, a 1.78% difference of a
// compute-bound program read +0.85 to +1.68% in four duets). Each side's
// time is taken from its operation before the company starts.
func (s *sampler) duetBatches(j job, sizes []int64) [2]duetRun {
	e := s.e
	var runs [2]duetRun
	var wg sync.WaitGroup
	var started atomic.Bool
	var ended [2]atomic.Bool
	wg.Add(2)
	for _, pos := range []int{1, 0} {
		c := j.order[pos]
		s.lanes[laneOf(pos)].work <- func() {
			defer wg.Done()
			if pos == 1 {
				for !started.Load() {
				}
			}
			r := &runs[pos]
			r.start = e.Clock.Now()
			if pos == 0 {
				started.Store(true)
			}
			r.ns, r.err = e.Cases[c].Op.Run(sizes[pos])
			r.end = e.Clock.Now()
			r.rec = ndjson.Sample{Iter: sizes[pos], WallNS: r.ns, OpNS: opTime(r.ns, e.Run.Clock.SubtractNS, sizes[pos])}
			if r.err == nil {
				r.timeErr = e.primaryTime(c, &r.rec)
			}
			ended[pos].Store(true)
			for r.err == nil && !ended[1-pos].Load() && !e.stopped.Load() {
				if _, err := e.Cases[c].Op.Run(1); err != nil {
					break
				}
			}
			r.busy = e.Clock.Now()
		}
	}
	wg.Wait()
	return runs
}

// overlap is the share of run a's wall time during which run b's side
// was running too, its batch or its company.
func overlap(a, b duetRun) float64 {
	d := a.end - a.start
	if d <= 0 {
		return 0
	}
	both := min(a.end, max(b.end, b.busy)) - max(a.start, b.start)
	return min(max(float64(both)/float64(d), 0), 1)
}
