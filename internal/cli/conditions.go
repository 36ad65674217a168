package cli

import (
	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/conditions"
)

// conditionsPolicy reads the operating-conditions flags into a policy;
// nil when --conditions is unset.
func conditionsPolicy(c *ucli.Context) (*conditions.Policy, error) {
	mode := c.String("conditions")
	if mode == "" {
		return nil, nil
	}
	limits := conditions.DefaultLimits
	limits.RequireNonreducedProfile = !c.Bool("allow-reduced-profile")
	limits.RequireProfileDetection = c.Bool("require-profile-detection")
	limits.RequireThermalDetection = c.Bool("require-thermal-detection")
	t := conditions.DefaultPauseTiming
	t.Stable, t.Poll, t.MaxPause = c.Duration("conditions-stable"), c.Duration("conditions-poll"), c.Duration("conditions-max-pause")
	p, err := conditions.ParsePolicy(mode, c.String("conditions-on-timeout"), c.String("max-thermal-state"), limits, t)
	if fe := fieldUsage(err); fe != err {
		return nil, fe
	}
	if err != nil {
		return nil, withCode(ExitUsage, err, "")
	}
	return &p, nil
}
