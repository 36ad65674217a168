package analyze

import (
	"github.com/flybench/flybench/pkg/ndjson"
)

// hostRecords are the host records of one run: the lock and gate records
// that preceded its run record, and its watch windows.
type hostRecords struct {
	lock    *ndjson.Lock
	gate    *ndjson.Gate
	windows []ndjson.Window
}

// environment reports what was observed about the host during the run.
func (d *runData) environment(end *ndjson.End) *ndjson.Environment {
	return Environment(&d.run, d.host.lock, d.host.gate, d.host.windows, end)
}

// Environment is the environment record of a run, from its host records:
// the lock and gate records that preceded its run record (nil when there
// were none), its watch windows, and its end record (nil when the run was
// cut short). It is a record of conditions: nothing in it adjusts any
// statistic.
func Environment(run *ndjson.Run, lock *ndjson.Lock, gate *ndjson.Gate, windows []ndjson.Window, end *ndjson.End) *ndjson.Environment {
	env := &ndjson.Environment{RunID: run.RunID, Attribution: "host_wide", Placement: "not_requested", Lock: "not_requested", Gate: "not_requested"}
	if lock != nil {
		env.Lock = lock.Outcome
	}
	if gate != nil {
		env.Gate = gate.Outcome
	}
	if p := run.Config.Placement; p != nil {
		env.Placement, env.WatchedCPUs = p.Outcome, p.WatchedCPUs
	}
	watchFacts(env, windows)
	if end != nil {
		env.BudgetExhausted = env.BudgetExhausted || end.BudgetExhausted
	}
	if c := run.Config.Conditions; c != nil {
		env.Conditions = conditionFacts(c, windows)
	}
	return env
}

// watchFacts condenses the window records. The foreign share averages
// every judged window, discarded ones included: it describes the host
// during the run, not only the data kept.
func watchFacts(env *ndjson.Environment, windows []ndjson.Window) {
	var sum float64
	judged := 0
	for _, w := range windows {
		env.Windows++
		if w.Attribution != "" {
			env.Attribution = w.Attribution
		}
		env.AttributionDiluted = env.AttributionDiluted || w.Diluted
		env.BudgetExhausted = env.BudgetExhausted || w.Exhausted
		if w.Judged {
			judged++
			sum += w.ForeignPct
			env.PeakForeignPct = max(env.PeakForeignPct, w.ForeignPct)
		}
		switch w.Action {
		case ndjson.ActionRetaken:
			env.RetakenSamples += w.Samples
		case ndjson.ActionPaused:
			env.Pauses++
			env.PausedNS += w.PauseNS
			env.RetakenSamples += w.Samples
		default:
			env.ObservedSamples += w.Samples
			if w.Verdict == ndjson.WindowContaminated {
				env.ContaminatedSample += w.Samples
			}
		}
	}
	env.Watched = judged > 0
	if judged > 0 {
		env.MeanForeignPct = sum / float64(judged)
	}
}

// conditionFacts condenses the operating-condition observations.
func conditionFacts(cfg *ndjson.ConditionsConfig, windows []ndjson.Window) *ndjson.EnvironmentConditions {
	c := &ndjson.EnvironmentConditions{Checked: true, Mode: cfg.Mode, ProfileAvailability: ndjson.Unavailable,
		DegradationAvail: ndjson.Unavailable, ThrottleAvailability: ndjson.Unavailable, WorstDegradation: "unknown"}
	var first, last *ndjson.Conditions
	for i := range windows {
		w := &windows[i]
		if w.Conditions == nil {
			continue
		}
		c.Windows++
		if first == nil {
			first = w.Conditions
		}
		if last != nil && last.Profile != w.Conditions.Profile {
			c.ProfileChanges++
		}
		last = w.Conditions
		conditionWindow(c, w)
	}
	if first != nil {
		c.ProfileDetector, c.InitialProfile, c.FinalProfile = last.ProfileDetector, first.Profile, last.Profile
		if last.ProfileDetector != "" && last.ProfileDetector != ndjson.Unavailable {
			c.ProfileAvailability = ndjson.Available
		}
		throttleFacts(c, first, last)
	}
	return c
}

func conditionWindow(c *ndjson.EnvironmentConditions, w *ndjson.Window) {
	if w.Conditions.Degradation != "" && w.Conditions.Degradation != "unknown" {
		c.DegradationAvail = ndjson.Available
		if w.Conditions.Degradation != "none" || c.WorstDegradation == "unknown" {
			c.WorstDegradation = w.Conditions.Degradation
		}
	}
	if !w.Conditions.Acceptable {
		c.AffectedUnits += w.Units
		if w.Action == ndjson.ActionPaused {
			c.Pauses++
			c.PausedNS += w.PauseNS
			c.RecollectedUnits += w.Units
		}
	}
	if w.ConditionsExpired {
		c.BudgetExpired, c.FallbackUsed = true, w.Fallback
	}
}

// throttleFacts reports the throttle counters' increase over the run, when
// they were observable at both ends.
func throttleFacts(c *ndjson.EnvironmentConditions, first, last *ndjson.Conditions) {
	if first.ThrottleEvents == nil || last.ThrottleEvents == nil || last.ThrottleDetector == ndjson.Unavailable {
		return
	}
	c.ThrottleAvailability = ndjson.Available
	events := *last.ThrottleEvents - *first.ThrottleEvents
	c.ThrottleEvents = &events
	if first.ThrottleMS != nil && last.ThrottleMS != nil {
		ms := *last.ThrottleMS - *first.ThrottleMS
		c.ThrottleMS = &ms
	}
}
