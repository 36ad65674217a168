package measure

import (
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Mode is how an operation executes: the stream's vocabulary, which the
// run record names in run.mode.
type Mode = ndjson.Mode

// The execution modes.
const (
	ModeExec   = ndjson.ModeExec
	ModeBatch  = ndjson.ModeBatch
	ModeWorker = ndjson.ModeWorker
	ModeGotest = ndjson.ModeGotest
)

// startsProcesses reports whether the mode starts a process per batch or
// per operation, whose environment (the layout padding) a unit can vary.
func startsProcesses(m Mode) bool { return m == ModeExec || m == ModeBatch }

// modeName is the mode as a field of a message: what asks for it.
func modeName(m Mode) field.Name { return field.Name("Mode=" + string(m)) }

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
