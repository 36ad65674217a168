package gotest

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
)

// Run runs one batch of n iterations with os/exec and parses its output
// (stdout and stderr together). It is for tests and tools that need no
// harness clock; the harness runs Argv under its own timer. A failed run
// whose output explains nothing is reported with its exit status.
func (s Spec) Run(ctx context.Context, n int64) (Result, error) {
	if err := s.Validate(); err != nil {
		return Result{}, err
	}
	argv := s.Argv(n)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = s.Dir
	out, runErr := cmd.CombinedOutput()
	r, err := Parse(out, s, n)
	var exit *exec.ExitError
	switch {
	case err != nil && runErr != nil && !errors.As(runErr, &exit):
		return Result{}, fmt.Errorf("run %s: %w", s, runErr)
	case err != nil && runErr != nil:
		return Result{}, fmt.Errorf("%w\n(the binary: %v)", err, runErr)
	case err != nil:
		return Result{}, err
	case runErr != nil:
		return Result{}, fmt.Errorf("%s: the benchmark reported a result but the binary failed: %v", s, runErr)
	}
	return r, nil
}
