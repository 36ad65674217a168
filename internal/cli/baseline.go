package cli

import (
	"errors"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/pkg/ndjson"
)

// baselineOf reads --baseline and --allow-mismatch: the archived stream
// every run is compared with, or nil without --baseline.
func baselineOf(c *ucli.Context, env Env, opt analyze.Options) (*analyze.Baseline, error) {
	file := c.String("baseline")
	allow, err := analyze.CheckBaseline(file, c.StringSlice("allow-mismatch"), opt.Estimator)
	if err != nil || file == "" {
		return nil, fieldUsage(err)
	}
	var b *analyze.Baseline
	err = withInput(env, file, func(r *ndjson.Reader) error {
		var err error
		b, err = analyze.LoadBaseline(r, file, opt)
		return err
	})
	if err != nil {
		var ve *ndjson.VersionError
		var se *ndjson.SyntaxError
		if errors.As(err, &ve) || errors.As(err, &se) {
			return nil, streamError(err, "the baseline is read before any output: nothing was written")
		}
		var ee *exitError
		if errors.As(err, &ee) {
			return nil, err
		}
		return nil, withCode(ExitBadInput, err, "nothing was written")
	}
	b.Allow = allow
	return b, nil
}

// baselineError gives a run that could not be compared with the baseline
// its exit code (13) and, for differing fingerprints, the flag that would
// allow them.
func baselineError(err error) error {
	var be *analyze.BaselineError
	if !errors.As(err, &be) {
		return nil
	}
	var me *analyze.MismatchError
	if errors.As(err, &me) {
		return withCode(ExitCannotJudge, err, fmt.Sprintf("every run's own analysis was written; compare on a machine and build that match, or allow the difference with --allow-mismatch %s", strings.Join(me.Fields(), ",")))
	}
	return withCode(ExitCannotJudge, err, "every run's own analysis was written")
}
