package measure

import (
	"fmt"
	"slices"

	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/pkg/ndjson"
)

// checkTimer refuses a timer that is none of the choices, and the CPU
// timer with Go test binaries: a test binary's rusage includes its
// start-up, the benchmark's setup and all it does with Go's timer
// stopped, none of which Go's ns/op counts, and none of which can be told
// apart from the timed loop.
func (p *plan) checkTimer() error {
	timer := field.Name("Timer")
	switch t := p.Timer; {
	case t != TimerAuto && t != TimerWall && t != TimerCPU:
		return field.Errorf("Timer", t, "%s %q: use auto, wall or cpu", timer, t)
	case t == TimerCPU && p.Mode == ModeGotest:
		return field.Errorf("Timer", t, "%s cpu with %s: the test binary's CPU time includes its start-up, the benchmark's setup and whatever runs with Go's timer stopped", timer, modeName(ModeGotest)).
			WithHint("keep Go's ns/op as the timer and add %s cpu to see the CPU time as an axis", field.Name("Axes"))
	}
	return nil
}

// checkCPUSides refuses the CPU timer for worker cases that share one
// process: its CPU-time clock counts every thread, so work one case leaves
// running (garbage collection, background threads) would be charged to the
// other case's requests.
func (p *plan) checkCPUSides() error {
	if p.Timer != TimerCPU || p.Mode != ModeWorker {
		return nil
	}
	timer := field.Name("Timer")
	for i := range p.sides {
		for j := i + 1; j < len(p.sides); j++ {
			if p.sides[i].worker == p.sides[j].worker {
				return field.Errorf("Timer", p.Timer, "%s cpu: cases %q and %q share one worker process, whose CPU-time clock would charge work one case leaves running (garbage collection, background threads) to the other",
					timer, p.caseNames[i], p.caseNames[j]).
					WithHint("give each case its own worker (repeat the command once per %s), or use %s wall", field.Name("Cases"), timer)
			}
		}
	}
	return nil
}

// Sources, resolutions and notes of the CPU timer. wait4 reports user and
// system time as timevals, whole microseconds each; a process's CPU-time
// clock counts nanoseconds.
const (
	rusageSource     = "wait4 rusage user+system"
	rusageResolution = 1000
	workerCPUSource  = "worker CPU-time clock (CLOCK_PROCESS_CPUTIME_ID of the worker, read around each request)"
	execCPUNote      = "CPU time of each run and of the children it waited for, summed over the batch: process start-up included; time spent waiting (sleep, I/O, locks, the run queue) and processes not waited for excluded; user and system time are whole microseconds per run"
	batchCPUNote     = "CPU time of the batch process and of the children it waited for: process start-up included; time spent waiting (sleep, I/O, locks, the run queue) and processes not waited for excluded"
	workerCPUNote    = "CPU time of every thread of the worker during the request, its protocol handling included; time spent waiting and processes the worker starts excluded"
)

// setTimer records the run's timer and custom axes. t is the timer the
// cases report themselves, or nil; the CPU timer replaces it with their
// CPU time and the wall timer with the harness's clock. A wall timer's
// note says what wall time includes (wallIncludes).
func (m *measurement) setTimer(t *ndjson.Timer, decls []custom.Descriptor, wallIncludes string) {
	m.customs = decls
	switch {
	case m.Timer == TimerCPU:
		t, m.customs = cpuTimer(m.Mode, t), notPrimary(decls)
	case m.Timer == TimerWall && t != nil:
		note := m.env.Names.Spell("Timer") + " wall: " + wallIncludes + "; " + notUsed(t)
		m.timer, m.customs = &ndjson.Timer{Kind: "wall", Note: note}, notPrimary(decls)
		return
	case t == nil:
		t = &ndjson.Timer{Kind: "wall", Note: string(m.Mode) + " mode without a self-reported time: " + wallIncludes}
	}
	m.timer = t
}

// cpuTimer is the run's CPU timer in mode. reported is the timer the
// cases report themselves, or nil; the note says it is not used.
func cpuTimer(mode Mode, reported *ndjson.Timer) *ndjson.Timer {
	t := &ndjson.Timer{Kind: ndjson.TimerCPU, Source: rusageSource, ResolutionNS: rusageResolution, Note: execCPUNote}
	switch mode {
	case ModeBatch:
		t.Note = batchCPUNote
	case ModeWorker:
		t.Source, t.ResolutionNS, t.Note = workerCPUSource, 1, workerCPUNote
	}
	if reported != nil {
		t.Note += "; " + notUsed(reported)
	}
	return t
}

// notUsed says that the cases' own timer is replaced by the one chosen.
func notUsed(reported *ndjson.Timer) string {
	return fmt.Sprintf("the cases' own %s is not used", reported.Axis)
}

// notPrimary clears the primary mark of custom axes whose timer was
// replaced: they stay ordinary axes.
func notPrimary(decls []custom.Descriptor) []custom.Descriptor {
	out := slices.Clone(decls)
	for i := range out {
		out[i].Primary = false
	}
	return out
}

// ChildrenError is a worker that waited for child processes during a
// request under the CPU timer: its CPU-time clock counts its own threads
// only.
type ChildrenError struct {
	Argv  []string
	Pid   int
	Ticks int64
	names field.Names
}

func (e *ChildrenError) Error() string {
	return fmt.Sprintf("%s cpu: worker %s (pid %d) waited for child processes during a request (%d clock ticks of their CPU time), which its CPU-time clock does not count",
		e.names.Spell("Timer"), runner.DisplayArgv(e.Argv), e.Pid, e.Ticks)
}

// checkWorkerChildren refuses the CPU timer for a worker that has child
// processes after its first request, such as a wrapper script that did
// not exec the real worker.
func (m *measurement) checkWorkerChildren(w *workerexec.Worker) error {
	timer := field.Name("Timer")
	kids, err := observe.Children(w.Pid())
	if err != nil {
		return fmt.Errorf("%s cpu: list the child processes of worker %s: %w", m.env.Names.Spell("Timer"), runner.DisplayArgv(w.Argv()), err)
	}
	if len(kids) > 0 {
		return m.errorf("Timer", m.Timer, "%s cpu: worker %s (pid %d) has child processes %v, whose CPU time its CPU-time clock does not count",
			timer, runner.DisplayArgv(w.Argv()), w.Pid(), kids).
			WithHint("exec the worker itself (a wrapper script can end in exec), or use %s wall", timer)
	}
	return nil
}

// cpuMeter reads what the CPU timer needs of a worker process: its
// CPU-time clock, and the CPU time of the children it has waited for.
// Tests inject both.
type cpuMeter struct {
	cpu      func(pid int) (int64, error) // ns, every thread of the process
	children func(pid int) (int64, error) // clock ticks, children waited for
	names    field.Names                  // how a ChildrenError spells the timer
}

var procMeter = cpuMeter{cpu: observe.ReadProcessCPU, children: observe.ReapedChildrenTicks}

// around runs one request of the worker pid (argv names it in errors) and
// returns its wall time and the CPU time the worker used meanwhile, read
// immediately before and after it, outside its wall time. It fails if the
// worker waited for child processes meanwhile: their CPU time is not on
// its clock.
func (m cpuMeter) around(pid int, argv []string, request func() (int64, error)) (wall, cpu int64, err error) {
	before, err := m.read(pid)
	if err != nil {
		return 0, 0, err
	}
	if wall, err = request(); err != nil {
		return 0, 0, err
	}
	after, err := m.read(pid)
	if err != nil {
		return 0, 0, err
	}
	if after.children != before.children {
		return 0, 0, &ChildrenError{Argv: argv, Pid: pid, Ticks: after.children - before.children, names: m.names}
	}
	return wall, after.cpu - before.cpu, nil
}

// cpuReading is one reading of a cpuMeter.
type cpuReading struct{ cpu, children int64 }

func (m cpuMeter) read(pid int) (cpuReading, error) {
	cpu, err := m.cpu(pid)
	if err != nil {
		return cpuReading{}, err
	}
	children, err := m.children(pid)
	return cpuReading{cpu: cpu, children: children}, err
}

// firstRunError is the error of a case's first, untimed batch or request:
// a command that failed, or showed work the CPU timer cannot see
// (runner.EscapeError, ChildrenError, found inside it).
func firstRunError(name, what string, err error) error {
	return &CommandError{Err: fmt.Errorf("%s: %s: %w", name, what, err)}
}
