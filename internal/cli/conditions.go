package cli

import (
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/conditions"
	"github.com/flybench/flybench/pkg/ndjson"
)

// conditionFlags are the operating-conditions policy flags.
func conditionFlags() []ucli.Flag {
	t := conditions.DefaultPauseTiming
	return []ucli.Flag{
		&ucli.StringFlag{Name: "conditions", Usage: "operating conditions (platform profile, power-profiles-daemon, thermal throttling) at every window: observe, pause (wait for acceptable conditions, re-warm, collect the window again) or fail (exit 8); off when unset; off Linux every detector is unavailable (unsupported_platform)"},
		&ucli.StringFlag{Name: "conditions-on-timeout", Usage: "--conditions pause: what an exhausted pause budget falls back to, observe or fail (required with pause)"},
		&ucli.BoolFlag{Name: "allow-reduced-profile", Usage: "accept a reduced (power-saving) profile instead of treating it as unacceptable"},
		&ucli.BoolFlag{Name: "require-profile-detection", Usage: "treat an unknown profile (no detector) as unacceptable"},
		&ucli.BoolFlag{Name: "require-thermal-detection", Usage: "treat the absence of every thermal signal (throttle counters, PPD degradation) as unacceptable"},
		&ucli.StringFlag{Name: "max-thermal-state", Value: "fair", Usage: "highest acceptable thermal state: nominal, fair, serious or critical (on Linux new throttling or a PPD degradation counts as serious)"},
		&ucli.DurationFlag{Name: "conditions-stable", Value: t.Stable, Usage: "--conditions pause: how long conditions must stay acceptable before resuming"},
		&ucli.DurationFlag{Name: "conditions-poll", Value: t.Poll, Usage: "--conditions pause: polling interval while waiting"},
		&ucli.DurationFlag{Name: "conditions-max-pause", Value: t.MaxPause, Usage: "--conditions pause: total wait budget of the run"},
	}
}

// conditionsPolicy reads the flags into a policy; ok is false when off.
func conditionsPolicy(c *ucli.Context) (conditions.Policy, bool, error) {
	mode := c.String("conditions")
	if mode == "" {
		return conditions.Policy{}, false, nil
	}
	limits := conditions.DefaultLimits
	limits.RequireNonreducedProfile = !c.Bool("allow-reduced-profile")
	limits.RequireProfileDetection = c.Bool("require-profile-detection")
	limits.RequireThermalDetection = c.Bool("require-thermal-detection")
	state, err := conditions.ParseThermalState(c.String("max-thermal-state"))
	if err != nil {
		return conditions.Policy{}, false, usageErrorf("--max-thermal-state: %v", err)
	}
	limits.MaxThermalState = state
	p, err := buildPolicy(c, mode, limits)
	if err != nil {
		return conditions.Policy{}, false, withCode(ExitUsage, err, "")
	}
	return p, true, nil
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

// attachConditions starts the monitor before warm-up (its first
// observation is the run's initial state) and hands it to the engine.
func (m *measurement) attachConditions(e *collect.Engine) {
	if !m.condOn {
		return
	}
	mon := conditions.NewMonitor(m.cond, conditions.System(), nil, nil)
	mon.Start()
	e.Conditions = mon
	if e.Config.Watch.Response == "" {
		e.Config.Watch.Window, e.Config.Watch.Rewarm = m.cond.Window(), m.cond.Rewarm()
	}
	l, t := m.cond.Limits(), m.cond.PauseTiming()
	cc := &ndjson.ConditionsConfig{
		Mode: m.cond.Mode().String(), RequireNonreducedProfile: l.RequireNonreducedProfile,
		RequireProfileDetection: l.RequireProfileDetection, RequireThermalDetection: l.RequireThermalDetection,
	}
	if cc.Mode == "pause" {
		cc.StableNS, cc.PollNS, cc.MaxPauseNS, cc.OnTimeout = int64(t.Stable), int64(t.Poll), int64(t.MaxPause), m.cond.OnTimeout().String()
	}
	e.Run.Config.Conditions = cc
}
