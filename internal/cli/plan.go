package cli

import (
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/measure"
	"github.com/flybench/flybench/pkg/ndjson"
)

// plan prints, for every run of the pilot streams, how many units and
// about how long a run needs for the half-width.
func plan(c *ucli.Context, env Env, opt analyze.Options, width float64) error {
	return eachInput(c, env, func(r *ndjson.Reader) error {
		plans, err := analyze.PlanStream(r, opt, width)
		warnTorn(env, "fb-analyze", r)
		for _, p := range plans {
			measure.WritePlan(env.Stdout, p, opt.Estimator, width, flagName)
		}
		if err == nil && len(plans) == 0 {
			return usageErrorf("%s holds no run to plan from: give a pilot stream from fb-pair or fb-sample", r.Name())
		}
		var pe *analyze.PlanError
		if errors.As(err, &pe) {
			return withCode(ExitUsage, fmt.Errorf("%s: %w", r.Name(), err), "plan from a paired or single-case pilot with at least 10 units that vary")
		}
		return streamError(err, "fix or remove that line; the plans of the runs before it were printed")
	})
}
