package noise

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runner"
)

// Command runs the benchmark command as a Runner: every invocation is a
// child process in its own process group, stdin /dev/null, stdout
// captured as the invocation's stream, stderr captured for the error
// message (its last TailBytes).
type Command struct {
	Argv []string
	// Keep, when set, is a directory that receives every finished
	// invocation's stdout as run-NN.ndjson.
	Keep string
	// Names spells Keep's field (FieldKeep) in errors; nil spells its path.
	Names field.Names
	// Grace is how long an interrupted invocation may take to exit after
	// the signal before it is killed; 0 is DefaultGrace.
	Grace time.Duration
}

// DefaultGrace is the Grace of a Command that sets none.
const DefaultGrace = 5 * time.Second

// Signaller is a context cause that names the signal to forward to the
// running invocation; other causes forward SIGTERM.
type Signaller interface {
	error
	Signal() syscall.Signal
}

// CommandError is an invocation that exited non-zero or died of a signal.
type CommandError struct {
	I      int
	Argv   []string
	Status syscall.WaitStatus
	// Stderr is the end of what the invocation wrote to stderr.
	Stderr string
	// Kept is the file its stdout was kept in, if any.
	Kept string
}

func (e *CommandError) Error() string {
	msg := fmt.Sprintf("invocation %d: command %s %s", e.I, runner.DisplayArgv(e.Argv), runner.DescribeStatus(e.Status))
	if line := runner.LastLine([]byte(e.Stderr)); line != "" {
		msg += ": " + line
	}
	return msg
}

// StartError is an invocation that could not be started.
type StartError struct {
	I    int
	Argv []string
	Err  error
}

func (e *StartError) Error() string {
	return fmt.Sprintf("invocation %d: start %s: %v", e.I, runner.DisplayArgv(e.Argv), e.Err)
}

func (e *StartError) Unwrap() error { return e.Err }

// KeptName is the file of invocation i in dir.
func KeptName(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("run-%02d.ndjson", i))
}

// Run runs invocation i to its end and returns its stdout. When ctx is
// cancelled the invocation's process group gets the cause's signal (the
// leader SIGKILL after Grace); Run reaps it and returns "invocation i: "
// and the cause, keeping nothing. Whatever the invocation left running
// in its process group is killed when it exits.
func (c *Command) Run(ctx context.Context, i int) (io.Reader, error) {
	out, err := scratch()
	if err != nil {
		return nil, err
	}
	defer out.Close()
	errf, err := scratch()
	if err != nil {
		return nil, err
	}
	defer errf.Close()
	err = c.execute(ctx, out, errf)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("invocation %d: %w", i, context.Cause(ctx))
	}
	stdout, rerr := readAll(out)
	if rerr != nil {
		return nil, rerr
	}
	kept, kerr := c.keep(i, stdout)
	var xe *exec.ExitError
	switch {
	case errors.As(err, &xe):
		stderr, _ := readAll(errf)
		return nil, &CommandError{I: i, Argv: c.Argv, Status: xe.Sys().(syscall.WaitStatus), Stderr: tail(stderr), Kept: kept}
	case err != nil:
		return nil, &StartError{I: i, Argv: c.Argv, Err: err}
	case kerr != nil:
		return nil, kerr
	}
	return bytes.NewReader(stdout), nil
}

// execute runs the command in its own process group with stdout and stderr
// on files (so that its exit, not the closing of a pipe, ends the wait),
// then kills the group.
func (c *Command) execute(ctx context.Context, stdout, stderr *os.File) error {
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, signalOf(ctx)) }
	cmd.WaitDelay = cmp.Or(c.Grace, DefaultGrace)
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return err
}

// scratch is an unlinked temporary file.
func scratch() (*os.File, error) {
	f, err := os.CreateTemp("", "fb-noise-")
	if err != nil {
		return nil, fmt.Errorf("capture file: %w", err)
	}
	os.Remove(f.Name())
	return f, nil
}

func readAll(f *os.File) ([]byte, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read back the output: %w", err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read back the output: %w", err)
	}
	return data, nil
}

// tail is the last runner.TailBytes of b.
func tail(b []byte) string {
	return string(b[max(len(b)-runner.TailBytes, 0):])
}

// keep writes an invocation's stdout into the Keep directory.
func (c *Command) keep(i int, data []byte) (string, error) {
	if c.Keep == "" {
		return "", nil
	}
	name := KeptName(c.Keep, i)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return "", fmt.Errorf("%s: %w", c.Names.Spell(FieldKeep), err)
	}
	return name, nil
}

// signalOf is the signal a cancelled ctx asks to forward.
func signalOf(ctx context.Context) syscall.Signal {
	var s Signaller
	if errors.As(context.Cause(ctx), &s) {
		return s.Signal()
	}
	return syscall.SIGTERM
}
