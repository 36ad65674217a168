package collect

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// Operation is one measured case. Run performs n logical operations and
// returns the elapsed nanoseconds of the whole batch.
type Operation interface {
	Run(n int64) (int64, error)
}

// SelfTimed is an Operation that reports its own elapsed time for the
// operations of its last batch: with Engine.SelfTimer set it is the
// primary timer of every sample (wall time still calibrates and budgets).
type SelfTimed interface {
	SelfElapsed() (float64, error)
}

// CPUTimed is an Operation that knows the user plus system CPU time its
// last batch used: its processes' wait4 rusage, or its worker's CPU-time
// clock around the request. With Engine.CPUTimer set it is the primary
// timer of every sample, and wall time becomes the sample's axis "wall".
type CPUTimed interface {
	CPUTime() (int64, error)
}

// Killer is an Operation that can abandon a batch in flight (a child process).
type Killer interface {
	Kill()
}

// Escaper is an Operation whose runs may leave processes behind them,
// which it kills: Escaped counts the runs that did, since the start.
type Escaper interface {
	Escaped() int64
}

// Case is a named operation.
type Case struct {
	Name    string
	Command string
	Argv    []string
	Op      Operation
	// Role is ndjson.RoleReferenceWorkload for the --reference workload.
	Role string
	// WorkUnits is the work one operation completes (--work-units), 0 when
	// not declared.
	WorkUnits float64
	// Params are the parameter values of a case expanded from a scan
	// (fb-pair --parameter-scan, --parameter-list); nil otherwise.
	Params map[string]string
	// Hooks are the case's own hook commands, recorded on its case
	// record; nil when hooks are given for every case (Hooks).
	Hooks *ndjson.CaseHooks
	// Program is the file the command starts, recorded on its case
	// record; nil when unknown.
	Program *ndjson.Program
}

// Hooks are untimed user commands around the measurement. Any may be nil.
// Prepare and Conclude are given the index of the case whose batch they
// bracket, so each case may have its own.
type Hooks struct {
	Setup    func() error      // once, before warmup
	Prepare  func(c int) error // before every batch of case c, warmup and calibration included
	Conclude func(c int) error // after every batch of case c that completed
	Cleanup  func() error      // once at the end, whatever the outcome
}

// Observer records the axes of every timed sample, outside the timed
// region: Before runs immediately before the batch (after --prepare),
// After immediately after it, filling the sample's axes and telemetry.
type Observer interface {
	Before(c int)
	After(c int, n int64, s *ndjson.Sample)
}

// Status is what the progress display shows.
type Status struct {
	Phase       string // starting, warming, calibrating, PhaseSampling, PhaseFinished, ...
	Case        string
	Done, Total int
	Elapsed     time.Duration // since the run started
	ETA         time.Duration // remaining sampling time estimate; 0 when unknown
	// Note is something the user should know when the phase begins, as a
	// sentence ("" for nothing).
	Note string
	// Tele is the run's telemetry at the last sample, when observed.
	Tele *ndjson.Telemetry
}

// The phases a display treats apart: sampling counts units, and a
// finished run is drawn at once with its totals.
const (
	PhaseSampling = "sampling"
	PhaseFinished = "finished"
)

// Progress receives status updates, always outside timed regions.
type Progress interface {
	Update(Status)
}

// The hooks and the duet lanes as failures name them, by their request
// fields; Engine.Names spells them for the user.
const (
	HookSetup    = "Hooks.Setup"
	HookCleanup  = "Hooks.Cleanup"
	HookPrepare  = "Hooks.Prepare"
	HookConclude = "Hooks.Conclude"
	DuetLanes    = "Duet"
)

// Engine collects one run.
type Engine struct {
	Config Config
	Cases  []Case
	Hooks  Hooks
	// Names spells a hook's field in a failure's message and the end
	// record (nil: the field's path).
	Names    field.Names
	Clock    probes.Clock
	Out      *ndjson.Writer
	Progress Progress
	// Run is the run record template; the engine fills the design, batching,
	// seed, cases and timing configuration and writes it.
	Run ndjson.Run
	// Observer, when set, records axes around every timed sample.
	Observer Observer
	// Check, when set, judges the first complete unit; an error ends the
	// run as failed (e.g. --require-perf).
	Check func(first []ndjson.Sample) error
	// SelfTimer takes every sample's time from the operations' own
	// reports (SelfTimed) instead of the harness's clock.
	SelfTimer bool
	// CPUTimer takes every sample's time from the CPU time its batch used
	// (CPUTimed) instead of the harness's clock; it excludes SelfTimer.
	CPUTimer bool
	// Monitor, when set, watches foreign CPU load over windows of whole
	// units and Config.Watch says what to do about it.
	Monitor Monitor
	// Conditions, when set, observes operating conditions at every window.
	Conditions Conditions
	// Judge analyses the kept samples at the looks of a stopping rule
	// (Config.Until); it must be set when the rule is.
	Judge Judge
	// Counters, when set, count every case once outside the timed
	// schedule, between calibration and the first sample.
	Counters []CounterProbe
	// Process, when set, repeats the whole collection in process blocks
	// (blocks.go); nil collects one block, as without --invocations.
	Process *ProcessPlan
	// Rotate, when set and Config.Rotate is not 0, starts a new block
	// every Config.Rotate units (rotate.go): it replaces the cases'
	// long-lived processes with fresh ones started in b's order, or drops
	// the programs' files from the page cache where every batch starts
	// its own process, and says what it did.
	Rotate func(b Block) (Started, error)
	// RotateDoes says in a few words what Rotate does, for the run
	// record's rule ("fresh processes").
	RotateDoes string
	// RotateMin is the fewest units a block of the automatic rotation
	// holds (0: 10, what restarting long-lived processes is worth). A
	// block start that only drops files and runs one untimed batch can
	// come as often as every unit, so that a short run still holds enough
	// blocks for the interval over them to have degrees of freedom.
	RotateMin int
	// Warmed, when set, is called once, when warm-up has run every case:
	// the first block's processes have read their files back, and what
	// the drop before them held can go.
	Warmed func()
	// Duet places the two sides of every pair on their CPUs when
	// Config.Duet asks for a duet run (duet.go); it must be set then.
	Duet *Duet

	stopped  atomic.Bool
	stopOnce sync.Once
	reason   atomic.Value // string
	start    int64
	// the process block being collected (blocks.go); nil without one
	block    *Block
	proc     *ndjson.ProcessRef
	unitBase int // unit index of the block's first unit
	seqBase  int // seq of the block's first batch
	// planned is what calibration expects of the sampling (calibrate.go)
	planned samplingPlan
}

// ErrInterrupted is returned when Stop ended the run.
var ErrInterrupted = errors.New("interrupted")

// RequirementError is a run stopped by Check.
type RequirementError struct{ Err error }

func (e *RequirementError) Error() string { return e.Err.Error() }
func (e *RequirementError) Unwrap() error { return e.Err }

// FailedError is a case whose operation failed; the run ended with reason "failed".
type FailedError struct {
	Case string
	Err  error
}

func (e *FailedError) Error() string { return fmt.Sprintf("%s: %v", e.Case, e.Err) }
func (e *FailedError) Unwrap() error { return e.Err }

// Stop ends the run at the next unit boundary, abandoning (killing) any batch
// in flight, whose unit is then discarded. Safe to call from any goroutine.
func (e *Engine) Stop(reason string) {
	e.stopOnce.Do(func() {
		e.reason.Store(reason)
		e.stopped.Store(true)
		for _, c := range e.Cases {
			if k, ok := c.Op.(Killer); ok {
				k.Kill()
			}
		}
	})
}

// Collect runs setup, warmup, calibration and sampling, then cleanup, and
// writes every record. The end record is written whatever happens after the
// run record; the returned error says why the run did not complete. The
// Config must have passed Validate for the cases: the caller checks it
// once, before it starts anything, and the engine does not again.
func (e *Engine) Collect() (*ndjson.End, error) {
	if e.Config.Duet != (e.Duet != nil) {
		return nil, errors.New("a duet run needs its CPUs (Engine.Duet), and only a duet run has them")
	}
	if e.Process != nil {
		return e.collectBlocks()
	}
	k := len(e.Cases)
	if err := e.checkPadded(); err != nil {
		return nil, err
	}
	e.start = e.Clock.Now()
	e.fillRun()
	if err := e.Out.Write(&e.Run); err != nil {
		return nil, err
	}
	end := &ndjson.End{RunID: e.Run.RunID, Samples: make([]int, k)}
	err := e.phases(end)
	if cerr := e.cleanup(); cerr != nil && err == nil {
		err = cerr
	}
	e.finish(end, err)
	if werr := e.Out.Write(end); werr != nil && err == nil {
		err = werr
	}
	e.report(Status{Phase: PhaseFinished, Done: end.Units, Total: e.unitsPlanned()})
	return end, err
}

func (e *Engine) phases(end *ndjson.End) error {
	if e.Hooks.Setup != nil {
		e.report(Status{Phase: "setup"})
		if err := e.Hooks.Setup(); err != nil {
			return &FailedError{Case: e.Names.Spell(HookSetup), Err: err}
		}
	}
	return e.blockPhases(end, true) // a run without process blocks is one block
}

func (e *Engine) cleanup() error {
	if e.Hooks.Cleanup == nil {
		return nil
	}
	e.report(Status{Phase: "cleanup"})
	if err := e.Hooks.Cleanup(); err != nil {
		return &FailedError{Case: e.Names.Spell(HookCleanup), Err: err}
	}
	return nil
}

func (e *Engine) finish(end *ndjson.End, err error) {
	end.ElapsedNS = e.Clock.Now() - e.start
	e.countEscapes(end)
	var fe *FailedError
	switch {
	case e.stopped.Load():
		end.Reason = ndjson.EndInterrupted
		end.Error, _ = e.reason.Load().(string)
	case errors.As(err, &fe):
		end.Reason = ndjson.EndFailed
		end.Error = err.Error()
	case err != nil:
		end.Reason = ndjson.EndFailed
		end.Error = err.Error()
	case end.Reason == "":
		end.Reason = ndjson.EndCompleted
	}
}

// countEscapes adds each case's runs that left processes behind to the
// end record (which may hold a resumed run's earlier counts), when any did.
func (e *Engine) countEscapes(end *ndjson.End) {
	counts, any := make([]int64, len(e.Cases)), false
	for i, c := range e.Cases {
		if i < len(end.Escaped) {
			counts[i] = end.Escaped[i]
		}
		if es, ok := c.Op.(Escaper); ok {
			counts[i] += es.Escaped()
		}
		any = any || counts[i] > 0
	}
	if any {
		end.Escaped = counts
	}
}

func (e *Engine) fillRun() {
	k := len(e.Cases)
	c := e.Config
	r := &e.Run
	r.Design, r.Batching, r.Seed = c.Design(k), c.BatchingName(), c.Seed
	if c.SizeSpread > 1 {
		r.Config.SizeSpread = c.SizeSpread
	}
	r.Config.WarmupNS = int64(c.Warmup)
	r.Config.MeasurementNS = int64(c.Measurement)
	r.Config.MaxSamplingNS = int64(c.MaxSampling)
	r.Config.Samples = c.Samples
	if c.Samples == AutoSamples {
		r.Config.SamplesRule = SamplesRule(e.Names)
	}
	r.Config.MinSampleNS = int64(c.MinSample)
	r.Config.MaxIterations = c.MaxIterations
	r.Config.SliceNS = int64(c.Slice(k))
	r.Config.SubtractTimerCost = c.SubtractTimerCost
	switch {
	case e.Rotate != nil && c.Rotate == AutoRotation:
		r.Config.Rotation = RotationRule(e.RotateDoes, e.rotateMin())
	case e.Rotate != nil && c.Rotate > 0:
		r.Config.Rotation = fmt.Sprintf("every %d units", c.Rotate)
	}
	if e.Process != nil {
		r.Config.Invocations = c.Invocations
		r.Config.ProcessDesign, r.Config.ProcessCycle = schedule.ProcessDesign(k)
	}
	r.Config.Timeout = e.timeoutText()
	if len(r.Config.Metrics) == 0 {
		r.Config.Metrics = []string{"wall"}
	}
	r.Cases = make([]ndjson.Case, k)
	for i, cs := range e.Cases {
		r.Cases[i] = ndjson.Case{Index: i, Name: cs.Name, Command: cs.Command, Argv: cs.Argv, Role: cs.Role, WorkUnits: cs.WorkUnits, Params: cs.Params, Hooks: cs.Hooks, Program: cs.Program}
	}
	e.familyRule()
}

// plan is the schedule for this run's design. A run with a stopping rule
// plans the most units it may collect, in blocks balanced on their own
// (pairs: 10, rounds: one cycle), since it may stop after any look.
func (e *Engine) plan() schedule.Plan {
	k, n := len(e.Cases), e.Config.Samples
	until := e.Config.Until.Rule != ""
	if until {
		n = MaxUntilUnits
	}
	switch e.Config.Design(k) {
	case ndjson.DesignSingle:
		return schedule.Single(n)
	case ndjson.DesignPaired:
		if e.Config.Duet {
			seed := e.Config.Seed
			if e.block != nil {
				seed = e.block.seed(seed)
			}
			return schedule.Alternating(n, seed)
		}
		if e.block != nil {
			return schedule.PairedLed(n, e.block.seed(e.Config.Seed), e.block.Order)
		}
		if until {
			return schedule.PairedBlocks(n, pairBlock, e.Config.Seed)
		}
		return schedule.Paired(n, e.Config.Seed)
	case ndjson.DesignSequential:
		return schedule.Sequential(n, k)
	}
	if e.block != nil {
		return schedule.RoundsLed(n, k, e.block.seed(e.Config.Seed), e.block.Order)
	}
	return schedule.Rounds(n, k, e.Config.Seed)
}

func (e *Engine) unitsPlanned() int {
	if e.Config.Until.Rule != "" {
		return 0 // not known in advance
	}
	if e.Config.Design(len(e.Cases)) == ndjson.DesignSequential {
		return e.Config.Samples * len(e.Cases)
	}
	return e.Config.Samples
}

func (e *Engine) report(s Status) {
	if e.Progress == nil {
		return
	}
	s.Elapsed = time.Duration(e.Clock.Now() - e.start)
	e.Progress.Update(s)
}

// runBatch runs the prepare hook, then one timed batch of case c, then
// the conclude hook. With a sample to fill, the observer brackets the
// batch alone.
func (e *Engine) runBatch(c int, n int64, s *ndjson.Sample) (int64, error) {
	if e.Hooks.Prepare != nil {
		if err := e.Hooks.Prepare(c); err != nil {
			return 0, e.failure(e.Names.Spell(HookPrepare), err)
		}
	}
	e.limitRuns(c)
	observe := s != nil && e.Observer != nil
	if observe {
		e.Observer.Before(c)
	}
	ns, err := e.Cases[c].Op.Run(n)
	if observe && err == nil {
		e.Observer.After(c, n, s)
	}
	if err != nil {
		return 0, e.failure(e.Cases[c].Name, err)
	}
	if e.stopped.Load() {
		return 0, ErrInterrupted
	}
	if e.Hooks.Conclude != nil {
		if err := e.Hooks.Conclude(c); err != nil {
			return 0, e.failure(e.Names.Spell(HookConclude), err)
		}
	}
	return ns, nil
}

func (e *Engine) failure(name string, err error) error {
	if e.stopped.Load() {
		return ErrInterrupted
	}
	return &FailedError{Case: name, Err: err}
}
