package runner

import (
	"fmt"
	"os"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/probes"
)

// Hook runs an untimed helper command (--prepare, --setup, --cleanup) once
// to completion. Its output is discarded unless show is set, when it goes
// to out (nil is os.Stderr). A failure is an *ExitError, whose message
// carries the exit status and the last stderr line and whose Stderr method
// gives the tail of stderr. A run longer than limit (when not 0) is
// killed with its process group, a *TimeoutError.
//
// names spells the field a refusal of shell syntax names (ShellError).
func Hook(command string, shell, show bool, out *os.File, limit time.Duration, names field.Names) error {
	argv, err := Split(command, shell)
	if err != nil {
		return fmt.Errorf("hook %q: %w", command, Spelled(err, names))
	}
	c, err := New(Options{Argv: argv, ShowOutput: show, Output: out})
	if err != nil {
		return fmt.Errorf("hook %q: %w", command, err)
	}
	defer c.Close()
	c.SetLimit(limit)
	_, err = c.Run(1, probes.Monotonic{})
	return err
}
