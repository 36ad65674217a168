package cli

import (
	"errors"
	"fmt"
	"slices"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/observe"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/workerexec"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Values of --timer: which clock a sample's per-operation time comes from.
const (
	timerAuto = "auto" // the cases' own elapsed time when they report one, else wall
	timerWall = "wall" // the harness's clock around each batch, whatever the cases report
	timerCPU  = "cpu"  // user plus system CPU time of each batch
)

func timerFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "timer", Value: timerAuto, Usage: "primary timer: auto (a batch's or worker's own elapsed time when every case reports one, else wall), " +
		"wall (the harness's clock around each batch, whatever the cases report) or cpu (user+system CPU time: the wait4 rusage of each batch's runs, or the worker's CPU-time clock around each request; wall time stays an axis); " +
		"cpu is refused where CPU time cannot be attributed (man page, TIMERS)"}
}

// timerChoice reads --timer. The CPU timer is refused with --gotest: a test
// binary's rusage includes its start-up, the benchmark's setup and all it
// does with Go's timer stopped, none of which Go's ns/op counts, and none
// of which can be told apart from the timed loop.
func timerChoice(c *ucli.Context, mode string) (string, error) {
	switch t := c.String("timer"); {
	case t != timerAuto && t != timerWall && t != timerCPU:
		return "", usageErrorf("--timer %q: use auto, wall or cpu", t)
	case t == timerCPU && mode == "gotest":
		return "", withCode(ExitUsage, errors.New("--timer cpu with --gotest: the test binary's CPU time includes its start-up, the benchmark's setup and whatever runs with Go's timer stopped"),
			"keep Go's ns/op as the timer and add --metrics cpu to see the CPU time as an axis")
	default:
		return t, nil
	}
}

// checkCPUSides refuses the CPU timer for worker cases that share one
// process: its CPU-time clock counts every thread, so work one case leaves
// running (garbage collection, background threads) would be charged to the
// other case's requests.
func checkCPUSides(choice, mode string, sides []side, names []string) error {
	if choice != timerCPU || mode != "worker" {
		return nil
	}
	for i := range sides {
		for j := i + 1; j < len(sides); j++ {
			if sides[i].worker == sides[j].worker {
				return withCode(ExitUsage, fmt.Errorf("--timer cpu: cases %q and %q share one worker process, whose CPU-time clock would charge work one case leaves running (garbage collection, background threads) to the other", names[i], names[j]),
					"give each case its own worker (repeat the command once per --case), or use --timer wall")
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

// cpuTimer is the run's timer under --timer cpu in mode. reported is the
// timer the cases report themselves, or nil; the note says it is not used.
func cpuTimer(mode string, reported *ndjson.Timer) *ndjson.Timer {
	t := &ndjson.Timer{Kind: ndjson.TimerCPU, Source: rusageSource, ResolutionNS: rusageResolution, Note: execCPUNote}
	switch mode {
	case "batch":
		t.Note = batchCPUNote
	case "worker":
		t.Source, t.ResolutionNS, t.Note = workerCPUSource, 1, workerCPUNote
	}
	if reported != nil {
		t.Note += "; " + notUsed(reported)
	}
	return t
}

// notUsed says that the cases' own timer is replaced by the one --timer chose.
func notUsed(reported *ndjson.Timer) string {
	return fmt.Sprintf("the cases' own %s is not used", reported.Axis)
}

// notPrimary clears the primary mark of custom axes whose timer --timer
// replaced: they stay ordinary axes.
func notPrimary(decls []custom.Descriptor) []custom.Descriptor {
	out := slices.Clone(decls)
	for i := range out {
		out[i].Primary = false
	}
	return out
}

// cpuRefusal recognizes work the CPU timer found it cannot see while
// collecting, and says what to do about it.
func cpuRefusal(err error) (hint string, ok bool) {
	var escaped *runner.EscapeError
	var children *childrenError
	switch {
	case errors.As(err, &escaped):
		return "make the command wait for every process it starts, or use --timer wall", true
	case errors.As(err, &children):
		return "use --timer wall for a worker that hands its work to other processes", true
	}
	return "", false
}

// firstRunError is the error of a case's first, untimed batch or request:
// work the CPU timer cannot see is a usage error, anything else a failed
// command.
func firstRunError(name, what string, err error) error {
	err = fmt.Errorf("%s: %s: %w", name, what, err)
	if hint, refused := cpuRefusal(err); refused {
		return withCode(ExitUsage, err, hint)
	}
	return withCode(ExitCommandFailed, err, "")
}

// childrenError is a worker that waited for child processes during a
// request: its CPU-time clock counts its own threads only.
type childrenError struct {
	argv  []string
	pid   int
	ticks int64
}

func (e *childrenError) Error() string {
	return fmt.Sprintf("--timer cpu: worker %s (pid %d) waited for child processes during a request (%d clock ticks of their CPU time), which its CPU-time clock does not count",
		runner.DisplayArgv(e.argv), e.pid, e.ticks)
}

// checkWorkerChildren refuses the CPU timer for a worker that has child
// processes after its first request, such as a wrapper script that did
// not exec the real worker.
func checkWorkerChildren(w *workerexec.Worker) error {
	kids, err := observe.Children(w.Pid())
	if err != nil {
		return fmt.Errorf("--timer cpu: list the child processes of worker %s: %w", runner.DisplayArgv(w.Argv()), err)
	}
	if len(kids) > 0 {
		return withCode(ExitUsage, fmt.Errorf("--timer cpu: worker %s (pid %d) has child processes %v, whose CPU time its CPU-time clock does not count", runner.DisplayArgv(w.Argv()), w.Pid(), kids),
			"exec the worker itself (a wrapper script can end in exec), or use --timer wall")
	}
	return nil
}

// cpuMeter reads what the CPU timer needs of a worker process: its
// CPU-time clock, and the CPU time of the children it has waited for.
// Tests inject both.
type cpuMeter struct {
	cpu      func(pid int) (int64, error) // ns, every thread of the process
	children func(pid int) (int64, error) // clock ticks, children waited for
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
		return 0, 0, &childrenError{argv: argv, pid: pid, ticks: after.children - before.children}
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
