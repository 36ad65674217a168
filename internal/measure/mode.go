package measure

import "github.com/flybench/flybench/internal/field"

// Mode is how an operation executes.
type Mode string

// The execution modes; the run record names them in run.mode.
const (
	ModeExec   Mode = "exec"   // a child process per operation
	ModeBatch  Mode = "batch"  // one process per batch performs its N operations itself
	ModeWorker Mode = "worker" // a long-lived worker serves a request per batch (man fb-worker(7))
	ModeGotest Mode = "gotest" // a compiled Go test benchmark runs once per batch (man fb-gotest(7))
)

// startsProcesses reports whether the mode starts a process per batch or
// per operation, whose environment (the layout padding) a unit can vary.
func (m Mode) startsProcesses() bool { return m == ModeExec || m == ModeBatch }

// name is the mode as a field of a message: what asks for it.
func (m Mode) name() field.Name { return field.Name("Mode=" + string(m)) }

// Timer is which clock a sample's per-operation time comes from.
type Timer string

// The timer choices.
const (
	TimerAuto Timer = "auto" // the cases' own elapsed time when they report one, else wall
	TimerWall Timer = "wall" // the harness's clock around each batch, whatever the cases report
	TimerCPU  Timer = "cpu"  // user plus system CPU time of each batch
)

// Requirement is what a run requires of the hardware axes.
type Requirement string

// The requirements.
const (
	RequireNone Requirement = ""     // nothing: an axis without samples says why
	RequireAll  Requirement = "all"  // every selected hardware axis has samples
	RequireCore Requirement = "core" // cycles, instructions and ipc have samples
)
