package measure

import (
	"math"
	"strconv"
	"time"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/conditions"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/progress"
)

// Request is one measurement as a user asks for it: what to run, how, and
// the collection policy. Run validates it and measures it, or its A/A
// series. It has no useful zero value: the policy starts from
// collect.DefaultConfig (with collect.DefaultWatch and a stopping rule's
// confidence, threshold and estimator), Timer from TimerAuto, and
// Placement.CPU from -1. A field error (*field.Error) names a field by
// its path here: "Samples", "Stdio.Output", "Until.MaxTime", and
// "Mode=worker" for what asks for worker mode.
type Request struct {
	// Config is the collection policy: budget, samples, batching, the
	// stopping rule, the watch, process blocks and rotation
	// (collect.AutoRotation: rotate where the mode can).
	collect.Config

	// Tool names the producer in the run record and in messages.
	Tool string
	// Least and Most bound the sides (commands, or worker cases) the tool
	// takes.
	Least, Most int
	Mode        Mode
	// Commands are the commands as given: one per side, or with Scan one
	// template.
	Commands []string
	// Cases are the worker cases to run, in order (ModeWorker).
	Cases []string
	// Names name the first cases, in order; the others are called by
	// their command.
	Names []string
	// Scan expands the one command template into cases; nil for none.
	Scan *Scan
	// AA, when set, measures the one command against itself in a series
	// of *AA runs, each with the next seed.
	AA    *int
	Timer Timer
	// BatchingAuto leaves Batching to the mode: shared, unless every side
	// is a worker case that declares its cost independent of the size.
	BatchingAuto bool
	// Layout asks for the layout padding or not; nil leaves it to the
	// mode (on where processes start per batch).
	Layout *bool
	// KeepPageCache leaves the programs' files in the page cache as found,
	// instead of dropping them before warm-up and whenever a process block
	// starts (a copy of a program is held as its writer made it, and ran
	// apart from the original for as long as both stayed cached).
	KeepPageCache bool
	// Reference, when set, adds a reference workload as the last case:
	// a built-in kind (refwork.Kinds) or a command.
	Reference *string
	// Resume, when set, continues an archived --invocations collection.
	Resume *Resume
	// WorkUnits is the work one operation completes: one value for every
	// measured case, or one per case.
	WorkUnits []float64
	// Tags are the user's fingerprint fields, recorded in the run.
	Tags      map[string]string
	Stdio     Stdio
	Hooks     Hooks
	Command   CommandOptions
	Placement Placement
	// DuetCPUs are the two CPUs of a duet run (Config.Duet); nil lets
	// the run choose two on different cores.
	DuetCPUs []int
	// Axes are the sampled axes, Counters the counted ones (SelectAxes).
	Axes, Counters []axes.Axis
	RequirePerf    Requirement
	// Conditions is the operating-conditions policy; nil leaves them
	// unobserved.
	Conditions *conditions.Policy
	// Progress is the display on stderr.
	Progress progress.Mode
}

// CommandOptions say how the commands and hooks run.
type CommandOptions struct {
	// Shell runs them through /bin/sh -c instead of splitting them.
	Shell bool
	// IgnoreFailure times failing runs instead of stopping.
	IgnoreFailure bool
	// ShowOutput sends their stdout and stderr to this tool's stderr.
	ShowOutput bool
	// GotestBench names the benchmark of a side given as a bare binary;
	// GotestBenchmem, GotestCPU and GotestDir are passed to every test
	// binary (CPU 0: the binary's own GOMAXPROCS).
	GotestBench    string
	GotestBenchmem bool
	GotestCPU      int
	GotestDir      string
	// WorkerStart and WorkerRequest bound a worker's handshake and one
	// answer.
	WorkerStart, WorkerRequest time.Duration
}

// Stdio is where the commands' stdin and stdout go. "" leaves either to
// the mode (/dev/null in exec and batch modes); "null" is /dev/null.
// Output is also "pipe" (drained by this tool), "inherit" (this tool's
// stderr) or a file, truncated once.
type Stdio struct {
	Input, Output string
}

// Hooks are untimed commands around the measured ones: each given once
// for every case, or once per measured case in order.
type Hooks struct {
	Prepare  []string // before every batch
	Conclude []string // after every batch
	Setup    []string // once before warm-up
	Cleanup  []string // once at the end, whatever the outcome
}

// Placement pins the benchmarked commands to a logical CPU.
type Placement struct {
	CPU int // -1 leaves them unplaced
	// RequireStrict refuses to run unplaced when strict placement fails.
	RequireStrict bool
}

// Resume continues an interrupted --invocations collection.
type Resume struct {
	Path string // the archive, appended to; "" asks for nothing
	// Retry first runs a fresh attempt of every block that did not
	// complete.
	Retry bool
}

// Scan is a parameter scan: its parameters in order, each a range
// (NAME=LO..HI, in steps of Step) or a list (NAME=A,B,C), the first
// varying slowest.
type Scan struct {
	Params []ScanParam
	Step   string
}

// ScanParam is one parameter as written.
type ScanParam struct {
	Range bool
	Text  string
}

// ParseWorkUnits reads the work units per operation as written, each a
// positive number. A bad one is a *field.Error of WorkUnits.
func ParseWorkUnits(values []string) ([]float64, error) {
	out := make([]float64, len(values))
	for i, v := range values {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || !(n > 0) || math.IsInf(n, 0) {
			return nil, field.Errorf("WorkUnits", v, "%s %q: want a positive number of work units per operation", field.Name("WorkUnits"), v)
		}
		out[i] = n
	}
	return out, nil
}
