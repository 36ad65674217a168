package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Exit codes shared by every tool and documented in each man page.
const (
	ExitOK            = 0
	ExitFailure       = 1   // an internal error, or an input that could not be read
	ExitUsage         = 2   // bad flags, arguments or values
	ExitBadInput      = 3   // a stream line that is not a usable record
	ExitSchema        = 4   // a stream with an unknown major schema version
	ExitCommandFailed = 5   // a benchmarked command or hook failed
	ExitNotAnalyzed   = 6   // fb-report or fb-check given a run without its analysis records
	ExitRequirement   = 7   // --require-perf: a required axis produced no samples
	ExitConditions    = 8   // operating conditions unacceptable under --conditions fail
	ExitPlacement     = 9   // --require-strict: strict placement unavailable
	ExitGateTimeout   = 10  // fb-gate: the host did not stay quiet before --timeout
	ExitLockRefused   = 11  // fb-lock --require-machine-scope: no machine-wide claim
	ExitRegressed     = 12  // fb-check: a metric regressed past both thresholds
	ExitCannotJudge   = 13  // fingerprints differ (fb-analyze --baseline, fb-check), or fb-check's input cannot be judged
	ExitOutput        = 14  // the output could not be written: a full disk, a reader that went away
	ExitTimedOut      = 15  // a run of a benchmarked command or hook outlived --timeout and was killed
	ExitInterrupted   = 130 // SIGINT; SIGTERM exits 143
	ExitTerminated    = 143
)

// exitError carries an exit code and an optional hint to Main.
type exitError struct {
	code int
	err  error
	hint string
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func withCode(code int, err error, hint string) error {
	return &exitError{code: code, err: err, hint: hint}
}

func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, args...)}
}

// streamError classifies a reader error; hint is what the tool can say
// of a bad line (what it wrote before it, and what to do).
func streamError(err error, hint string) error {
	var ve *ndjson.VersionError
	var se *ndjson.SyntaxError
	switch {
	case errors.As(err, &ve):
		return withCode(ExitSchema, err, "")
	case errors.As(err, &se):
		return withCode(ExitBadInput, err, hint)
	}
	return err
}

// outputFailed marks err, a failed write of a tool's output other than
// its standard output (a --record file), for ExitOutput.
func outputFailed(err error) error {
	if err == nil {
		return nil
	}
	return withCode(ExitOutput, err, "")
}

// stdoutFailed reports whether err is a failed write of standard output:
// a full disk, or a reader that went away (EPIPE, which a tool sees
// instead of dying of SIGPIPE: Main asks for the signal).
func stdoutFailed(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Path == os.Stdout.Name() && pe.Op == "write"
}

// brokenPipe is what a closed pipe on standard output is called in a
// message, in place of the system's "write /dev/stdout: broken pipe".
const brokenPipe = "standard output was closed by its reader (broken pipe)"

// printError prints err the house way: "tool: error: message", then an optional
// "tool: hint: ..." line, and returns the exit code. A failed write of
// standard output is ExitOutput whatever reported it.
func printError(stderr io.Writer, tool string, err error) int {
	if err == nil {
		return ExitOK
	}
	code, hint := ExitFailure, ""
	var ee *exitError
	if errors.As(err, &ee) {
		code, hint = ee.code, ee.hint
	}
	if code == ExitFailure && stdoutFailed(err) {
		code = ExitOutput
	}
	msg := strings.TrimSpace(err.Error())
	if code == ExitOutput && errors.Is(err, syscall.EPIPE) {
		msg = strings.Replace(msg, "write "+os.Stdout.Name()+": broken pipe", brokenPipe, 1)
	}
	fmt.Fprintf(stderr, "%s: error: %s\n", tool, msg)
	if hint != "" {
		fmt.Fprintf(stderr, "%s: hint: %s\n", tool, hint)
	}
	return code
}
