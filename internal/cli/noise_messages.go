package cli

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"syscall"

	"github.com/flybench/flybench/internal/noise"
	"github.com/flybench/flybench/pkg/ndjson"
)

// printNoiseProgress says what one invocation changed, on one line.
func printNoiseProgress(env Env, p noise.Progress) {
	for _, k := range p.Dropped {
		fmt.Fprintf(env.Stderr, "fb-noise: warning: invocation %d has no %s %s; it leaves the profile\n", p.Invocation, k.Kind, k)
	}
	if p.TagsDiffer {
		fmt.Fprintf(env.Stderr, "fb-noise: warning: invocation %d's tags differ from the earlier ones; the profile carries none\n", p.Invocation)
	}
	line := fmt.Sprintf("fb-noise: invocation %d/≤%d: %d metrics", p.Invocation, p.MaxRuns, p.Metrics)
	switch {
	case p.Invocation == 2:
		line += ", first estimates"
	case p.Invocation > 2:
		line += ", largest change of estimate " + estimateChange(p.Largest) + " (" + p.Of.String() + ")"
	}
	fmt.Fprintln(env.Stderr, line)
}

// estimateChange shows a change of estimate: "14%", or "from 0".
func estimateChange(f float64) string {
	if math.IsInf(f, 1) {
		return "from 0"
	}
	return fmt.Sprintf("%.3g%%", 100*f)
}

// printNoiseOutcome says whether the estimates settled; quiet leaves
// out all but the warning that they did not.
func printNoiseOutcome(env Env, cfg noise.Config, res *noise.Result, quiet bool) {
	if res.Converged {
		if quiet {
			return
		}
		fmt.Fprintf(env.Stderr, "fb-noise: converged after %d invocations: no estimate moved by more than %g%%\n", res.Invocations, cfg.TolerancePct)
		return
	}
	fmt.Fprintf(env.Stderr, "fb-noise: warning: not converged after %d invocations (--max-runs): the estimate of %s moved by %s at the last one, more than --tolerance %g%%; the profile says converged false\n",
		res.Invocations, res.Of, estimateChange(res.Largest), cfg.TolerancePct)
}

// noiseError gives a calibration's failure its exit code and hint.
func noiseError(env Env, err error, keep string) error {
	var sig interruption
	var ce *noise.CommandError
	var se *noise.StartError
	var class *noise.ClassError
	var ve *ndjson.VersionError
	switch {
	case errors.As(err, &sig):
		code := ExitInterrupted
		if sig.sig == syscall.SIGTERM {
			code = ExitTerminated
		}
		hint := ""
		if keep != "" {
			hint = "the streams of the finished invocations are in " + keep
		}
		return withCode(code, fmt.Errorf("%w; nothing was written to stdout", err), hint)
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
