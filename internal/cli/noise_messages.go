package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/lifecycle"
	"github.com/flybench/flybench/internal/noise"
	"github.com/flybench/flybench/pkg/ndjson"
)

// printNoiseProgress says what one invocation changed: its warnings, then
// one line.
func printNoiseProgress(env Env, p noise.Progress) {
	for _, w := range p.Warnings() {
		fmt.Fprintf(env.Stderr, "fb-noise: warning: %s\n", w)
	}
	fmt.Fprintf(env.Stderr, "fb-noise: %s\n", p.Line())
}

// printNoiseOutcome says whether the estimates settled; quiet leaves
// out all but the warning that they did not.
func printNoiseOutcome(env Env, cfg noise.Config, res *noise.Result, quiet bool) {
	switch {
	case !res.Converged:
		fmt.Fprintf(env.Stderr, "fb-noise: warning: %s\n", res.Unsettled(cfg, flagName))
	case !quiet:
		fmt.Fprintf(env.Stderr, "fb-noise: %s\n", res.Settled(cfg))
	}
}

// noiseError gives a calibration's failure its exit code and hint.
func noiseError(env Env, err error, keep string) error {
	var sig lifecycle.Signalled
	var ce *noise.CommandError
	var se *noise.StartError
	var class *noise.ClassError
	var ve *ndjson.VersionError
	switch {
	case errors.As(err, &sig):
		hint := ""
		if keep != "" {
			hint = "the streams of the finished invocations are in " + keep
		}
		return withCode(lifecycle.Code(sig.Signal()), fmt.Errorf("%w; nothing was written to stdout", err), hint)
	case errors.As(err, &ce):
		if text := strings.TrimRight(ce.Stderr, "\n"); text != "" {
			fmt.Fprintf(env.Stderr, "--- stderr of invocation %d ---\n%s\n---\n", ce.I, text)
		}
		return withCode(ExitCommandFailed, err, "fix the command; nothing was written to stdout")
	case errors.As(err, &se):
		return withCode(ExitCommandFailed, err, "check that COMMAND is an executable program")
	case errors.As(err, &class):
		return withCode(ExitCannotJudge, err, "calibrate on the machine class the checks will run on, all invocations on one host")
	case errors.As(err, &ve):
		return withCode(ExitSchema, err, "")
	}
	var ie *noise.InvocationError
	if errors.As(err, &ie) {
		hint := "rerun with --keep DIR to look at the streams"
		if keep != "" {
			hint = "its stream is " + noise.KeptName(keep, ie.I)
		}
		return withCode(ExitBadInput, err, hint)
	}
	return err
}
