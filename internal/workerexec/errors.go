package workerexec

import (
	"errors"
	"fmt"
	"syscall"
	"time"

	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/internal/wproto"
)

// where is the context every error names: the worker, the case and the
// last request (both empty during the handshake), the offending line if
// there was one, and the tail of the worker's stderr.
type where struct {
	argv     []string
	caseName string
	request  string
	line     string
	stderr   []byte
}

func (at where) with(line string) where {
	at.line = line
	return at
}

// prefix is `worker "./w" case "sum"`, or `worker "./w"` without a case.
func (at where) prefix() string {
	if at.caseName == "" {
		return "worker " + runner.DisplayArgv(at.argv)
	}
	return fmt.Sprintf("worker %s case %q", runner.DisplayArgv(at.argv), at.caseName)
}

// during is `"run sum 1000"`, or "the handshake" before any request.
func (at where) during() string {
	if at.request == "" {
		return "the handshake"
	}
	return fmt.Sprintf("%q", at.request)
}

// Argv is the worker's command.
func (at where) Argv() []string { return at.argv }

// Case is the case of the last request, "" during the handshake or quit.
func (at where) Case() string { return at.caseName }

// Request is the last request as sent ("run sum 1000", "quit"), "" during
// the handshake.
func (at where) Request() string { return at.request }

// Line is the offending line the worker wrote, if there was one.
func (at where) Line() string { return at.line }

// Stderr is the end of what the worker wrote to stderr, at most TailBytes,
// for display under the error; empty when stderr was shown.
func (at where) Stderr() string { return string(at.stderr) }

// ProtocolError is a worker that broke the protocol: a bad handshake, or
// an answer that is not a well-formed done or error line for the request.
type ProtocolError struct {
	where
	Err error // what was wrong
}

// Error is one line, such as
//
//	worker "./w" case "sum": bad answer "done prod 10" to "run sum 10": done names case "prod", not "sum"
func (e *ProtocolError) Error() string {
	what, msg, line := "bad answer", e.Err.Error(), e.line
	if se := (*wproto.SyntaxError)(nil); errors.As(e.Err, &se) {
		msg = se.Msg
		if line == "" {
			line = se.Line
		}
	}
	if e.request == "" {
		what = "bad handshake"
	}
	if line != "" {
		what += fmt.Sprintf(" %q", runner.Clip(line))
	}
	if e.request != "" {
		what += " to " + e.during()
	}
	return fmt.Sprintf("%s: %s: %s", e.prefix(), what, msg)
}

func (e *ProtocolError) Unwrap() error { return e.Err }

// WorkerError is a worker's "error CASE MESSAGE" answer.
type WorkerError struct {
	where
	Message string
}

// Error is one line, such as
//
//	worker "./w" case "sum" failed on "run sum 10": out of memory
func (e *WorkerError) Error() string {
	return fmt.Sprintf("%s failed on %s: %s", e.prefix(), e.during(), runner.Printable(e.Message))
}

// ExitError is a worker that exited, or died of a signal, when it should
// have answered (or, after quit, exited with a status other than 0).
type ExitError struct {
	where
	Status syscall.WaitStatus
}

// Error is one line with the last line of the worker's stderr, such as
//
//	worker "./w" case "sum" exited with status 2 during "run sum 10": panic: boom
func (e *ExitError) Error() string {
	s := fmt.Sprintf("%s %s during %s", e.prefix(), runner.DescribeStatus(e.Status), e.during())
	if e.request == "quit" {
		s = fmt.Sprintf("%s %s after \"quit\"", e.prefix(), runner.DescribeStatus(e.Status))
	}
	if line := runner.LastLine(e.stderr); line != "" {
		s += ": " + line
	}
	return s
}

// ExitCode is the exit status, or -1 for a death by signal.
func (e *ExitError) ExitCode() int { return e.Status.ExitStatus() }

// TimeoutError is a worker that did not finish its handshake within the
// start timeout, did not answer a request within the request timeout, or
// was still running QuitTimeout after quit.
type TimeoutError struct {
	where
	Timeout time.Duration
}

// Error is one line, such as
//
//	worker "./w" case "sum": no answer to "run sum 1000000" within 10s
func (e *TimeoutError) Error() string {
	var s string
	switch e.request {
	case "":
		s = fmt.Sprintf("%s: no handshake within %v", e.prefix(), e.Timeout)
	case "quit":
		s = fmt.Sprintf("%s: still running %v after \"quit\"; killed", e.prefix(), e.Timeout)
	default:
		s = fmt.Sprintf("%s: no answer to %s within %v", e.prefix(), e.during(), e.Timeout)
	}
	if line := runner.LastLine(e.stderr); line != "" {
		s += " (last stderr line: " + line + ")"
	}
	return s
}

// TimeLimit is the limit the worker outlasted, as runner.TimeoutError
// says it: both are a run past its time limit to the command layer.
func (e *TimeoutError) TimeLimit() time.Duration { return e.Timeout }

// killedError is a Run that Kill interrupted; errors.Is(err, ErrKilled).
type killedError struct{ where }

func (e *killedError) Error() string {
	return fmt.Sprintf("%s: killed during %s", e.prefix(), e.during())
}

func (e *killedError) Is(target error) bool { return target == ErrKilled }
