package claim

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"syscall"

	"github.com/flybench/flybench/internal/field"
)

// Check refuses a request's timing before anything is claimed: a
// negative timeout, or a poll interval that is not positive.
func (req Request) Check() error {
	switch {
	case req.Timeout < 0:
		return field.Errorf(FieldTimeout, req.Timeout, "%s %s is negative", field.Name(FieldTimeout), req.Timeout)
	case req.Poll <= 0:
		return field.Errorf(FieldPoll, req.Poll, "%s %s: use a positive interval, e.g. 250ms", field.Name(FieldPoll), req.Poll)
	}
	return nil
}

// ResolveDir is the claim directory, made absolute: path when given (it
// must not be empty), else as Dir chooses without one.
func ResolveDir(path string, given bool, getenv func(string) string) (string, error) {
	switch {
	case !given:
		path = ""
	case path == "":
		return "", field.Errorf(FieldPath, path, "%s is empty", pathField)
	}
	dir, err := filepath.Abs(Dir(path, getenv))
	if err != nil {
		return "", field.Errorf(FieldPath, path, "%s %q: %v", pathField, path, err)
	}
	return dir, nil
}

// ParseCPUs reads the CPUs of a per-CPU claim (2,3 or 0-3), refusing one
// that is not online in root when root says which are.
func ParseCPUs(list string, root fs.FS) ([]int, error) {
	cpus, err := ParseCPUList(list)
	if err != nil || len(cpus) == 0 {
		return nil, field.Errorf(FieldCPUs, list, "%s %q: give CPU numbers like 2,3 or 0-3 (%v)", field.Name(FieldCPUs), list, err)
	}
	online, err := OnlineCPUs(root)
	if err != nil {
		return cpus, nil // nothing to check against
	}
	if err := CheckCPUs(cpus, online); err != nil {
		return nil, field.Errorf(FieldCPUs, list, "%s %q: %v", field.Name(FieldCPUs), list, err)
	}
	return cpus, nil
}

// Exec replaces the process with program, run with argv and environ, the
// claim's descriptors kept open across the exec and listed in
// $HOST_CPU_CLAIM_FDS; c is nil when no claim is held. It returns only
// on failure: an *ExecError when the exec itself failed.
func (c *Claim) Exec(program string, argv, environ []string) error {
	var fds []int
	if c != nil {
		if err := c.KeepAcrossExec(); err != nil {
			return err
		}
		fds = c.FDs()
	}
	return &ExecError{Program: program, Err: syscall.Exec(program, argv, ExecEnv(environ, fds))}
}

// ExecError is a program that could not be executed.
type ExecError struct {
	Program string
	Err     error
}

func (e *ExecError) Error() string { return fmt.Sprintf("exec %q: %v", e.Program, e.Err) }
func (e *ExecError) Unwrap() error { return e.Err }
