package measure

import (
	"os"
	"syscall"

	"github.com/flybench/flybench/pkg/ndjson"
)

// The errors Run returns besides a *field.Error (a request that cannot be
// measured) and the engine's own (collect.FailedError, ConditionsError,
// RequirementError): each says what kind of trouble stopped the run, so a
// front end can give it its exit status.

// CommandError is a benchmarked command that could not start, or failed
// or disagreed with the other sides before anything was timed.
type CommandError struct{ Err error }

func (e *CommandError) Error() string { return e.Err.Error() }
func (e *CommandError) Unwrap() error { return e.Err }

// PlacementError is strict placement that was required and unavailable.
type PlacementError struct{ Err error }

func (e *PlacementError) Error() string { return e.Err.Error() }
func (e *PlacementError) Unwrap() error { return e.Err }

// FingerprintError is an archive to resume that was collected on another
// host, tool or timer.
type FingerprintError struct{ Err error }

func (e *FingerprintError) Error() string { return e.Err.Error() }
func (e *FingerprintError) Unwrap() error { return e.Err }

// ArchiveError is an archive to resume that is not a stream of one run
// collected in process blocks; a bad line is an *ndjson.SyntaxError
// inside it.
type ArchiveError struct{ Err error }

func (e *ArchiveError) Error() string { return e.Err.Error() }
func (e *ArchiveError) Unwrap() error { return e.Err }

// InterruptedError is a run a signal stopped; its stream still ends with
// an end record.
type InterruptedError struct {
	Signal os.Signal // SIGINT or SIGTERM
	End    *ndjson.End
	Err    error
}

func (e *InterruptedError) Error() string { return e.Err.Error() }
func (e *InterruptedError) Unwrap() error { return e.Err }

// signalName is how the run and its end record name a signal.
func signalName(s os.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}
