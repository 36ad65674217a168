package cli

import (
	"errors"
	"fmt"

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
	state, err := conditions.ParseThermalState(c.String("max-thermal-state"))
	if err != nil {
		return nil, usageErrorf("--max-thermal-state: %v", err)
	}
	limits.MaxThermalState = state
	p, err := buildPolicy(c, mode, limits)
	if err != nil {
		return nil, withCode(ExitUsage, err, "")
	}
	return &p, nil
}

func buildPolicy(c *ucli.Context, mode string, limits conditions.Limits) (conditions.Policy, error) {
	switch mode {
	case "observe":
		return conditions.Observe(limits)
	case "fail":
		return conditions.Fail(limits)
	case "pause":
		if c.String("conditions-on-timeout") == "" {
			return conditions.Policy{}, errors.New("--conditions pause needs --conditions-on-timeout observe|fail: what an exhausted pause budget does is never silently defaulted")
		}
		fb, err := conditions.ParseFallback(c.String("conditions-on-timeout"))
		if err != nil {
			return conditions.Policy{}, fmt.Errorf("--conditions-on-timeout: %w", err)
		}
		t := conditions.DefaultPauseTiming
		t.Stable, t.Poll, t.MaxPause = c.Duration("conditions-stable"), c.Duration("conditions-poll"), c.Duration("conditions-max-pause")
		return conditions.Pause(fb, limits, t)
	}
	return conditions.Policy{}, fmt.Errorf("--conditions %q: use observe, pause or fail", mode)
}
