package measure

import (
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/conditions"
	"github.com/flybench/flybench/pkg/ndjson"
)

// attachConditions starts the conditions monitor before warm-up (its
// first observation is the run's initial state), hands it to the engine
// and states the policy in the run record.
func (m *measurement) attachConditions(e *collect.Engine) {
	if m.Conditions == nil {
		return
	}
	policy := *m.Conditions
	mon := conditions.NewMonitor(policy, conditions.System(), nil, nil)
	mon.Start()
	e.Conditions = mon
	if e.Config.Watch.Response == "" {
		e.Config.Watch.Window, e.Config.Watch.Rewarm = policy.Window(), policy.Rewarm()
	}
	l, t := policy.Limits(), policy.PauseTiming()
	cc := &ndjson.ConditionsConfig{
		Mode: policy.Mode().String(), RequireNonreducedProfile: l.RequireNonreducedProfile,
		RequireProfileDetection: l.RequireProfileDetection, RequireThermalDetection: l.RequireThermalDetection,
	}
	if policy.Mode() == conditions.ModePause {
		cc.StableNS, cc.PollNS, cc.MaxPauseNS, cc.OnTimeout = int64(t.Stable), int64(t.Poll), int64(t.MaxPause), policy.OnTimeout().String()
	}
	e.Run.Config.Conditions = cc
}
