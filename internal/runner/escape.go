package runner

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// errEscaped marks a run that Run turns into an *EscapeError.
var errEscaped = errors.New("processes outlived the run")

// EscapeError is a run that left processes of its process group alive when
// it exited: a background job, or a child it did not wait for. wait4's
// rusage covers a child and the descendants it waited for, so their CPU
// time is in no rusage the harness reads. Run returns it only with
// Options.Contain.
type EscapeError struct {
	Argv []string
	// Run is the run's position in its batch, from 1, of Batch runs.
	Run, Batch int64
}

func (e *EscapeError) Error() string {
	at := ""
	if e.Batch > 1 {
		at = fmt.Sprintf(" (run %d of %d)", e.Run, e.Batch)
	}
	return fmt.Sprintf("command %s exited leaving processes of its group running%s, a background job or a child it did not wait for: wait4's rusage does not count their CPU time",
		DisplayArgv(e.Argv), at)
}

// groupAlive reports whether a process of the process group pgid still
// exists (a zombie counts: it was not waited for by the run either). A
// process that escaped with setsid or setpgid is not seen.
func groupAlive(pgid int) bool {
	err := unix.Kill(-pgid, 0)
	return err == nil || err == unix.EPERM
}

// killSurvivors kills what is left of the process group of a reaped run,
// and reports whether anything was. The group's number stays taken while
// any process is in it, so the kill reaches that group, not a new one
// (only if its last member exits between the two calls and the kernel
// hands out the same number at once could it miss).
func killSurvivors(pgid int) bool {
	if !groupAlive(pgid) {
		return false
	}
	_ = unix.Kill(-pgid, unix.SIGKILL)
	return true
}
