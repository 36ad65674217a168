package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Exit codes shared by every tool and documented in each man page.
const (
	ExitOK            = 0
	ExitFailure       = 1   // an internal or I/O error
	ExitUsage         = 2   // bad flags, arguments or values
	ExitBadInput      = 3   // a stream line that is not a usable record
	ExitSchema        = 4   // a stream with an unknown major schema version
	ExitCommandFailed = 5   // a benchmarked command or hook failed
	ExitNotAnalyzed   = 6   // fb-report given a stream without analysis records
	ExitRequirement   = 7   // --require-perf: a required axis produced no samples
	ExitConditions    = 8   // operating conditions unacceptable under --conditions fail
	ExitPlacement     = 9   // --require-strict: strict placement unavailable
	ExitGateTimeout   = 10  // fb-gate: the host did not stay quiet before --timeout
	ExitLockRefused   = 11  // fb-lock --require-machine-scope: no machine-wide claim
	ExitRegressed     = 12  // fb-check: a metric regressed past both thresholds
	ExitCannotJudge   = 13  // fingerprints differ (fb-analyze --baseline, fb-check), or fb-check's input cannot be judged
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

// printError prints err the house way: "tool: error: message", then an optional
// "tool: hint: ..." line, and returns the exit code.
func printError(stderr io.Writer, tool string, err error) int {
	if err == nil {
		return ExitOK
	}
	code, hint := ExitFailure, ""
	var ee *exitError
	if errors.As(err, &ee) {
		code, hint = ee.code, ee.hint
	}
	msg := strings.TrimSpace(err.Error())
	fmt.Fprintf(stderr, "%s: error: %s\n", tool, msg)
	if hint != "" {
		fmt.Fprintf(stderr, "%s: hint: %s\n", tool, hint)
	}
	return code
}
