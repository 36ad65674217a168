package conditions

import (
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// tally accumulates what a run's observations and windows showed.
type tally struct {
	observations int
	// profileGap is set once any observation lacked a profile answer.
	profileGap     bool
	initial, final ProfileReading
	// changes counts changes of the raw profile between answered
	// observations; a detector's silence is a gap, not a change.
	changes int
	lastRaw string
	haveRaw bool
	// worst is the latest degradation reason other than none; none when
	// PPD only ever reported none; "" when it never answered.
	worst string

	windows, affected, recollected, pauses int
	pausedNS                               int64
	expired                                bool
	fallback                               string
}

// observe folds one observation into the tally.
func (t *tally) observe(o Observation) {
	p := o.Profile
	if t.observations == 0 {
		t.initial = p
	}
	t.observations++
	t.final = p
	if !p.Available {
		t.profileGap = true
		return
	}
	if t.haveRaw && p.Raw != t.lastRaw {
		t.changes++
	}
	t.lastRaw, t.haveRaw = p.Raw, true
	switch {
	case p.Detector != DetectorPPD:
	case p.Degradation != DegradationNone:
		t.worst = p.Degradation
	case t.worst == "":
		t.worst = DegradationNone
	}
}

// Record tells the monitor how a window of units ended: whether its
// conditions were acceptable, and whether its units were discarded and
// collected again after a pause.
func (m *Monitor) Record(units int, acceptable, recollected bool) {
	if !acceptable {
		m.tally.affected += units
	}
	if recollected {
		m.tally.recollected += units
	}
}

// RecordPause tells the monitor about one wait: how long it took, whether
// the budget ran out, and the fallback then taken ("observe" or "fail").
// Waits spend the run's pause budget.
func (m *Monitor) RecordPause(waited time.Duration, expired bool, fallback string) {
	m.tally.pauses++
	m.tally.pausedNS += int64(waited)
	if expired {
		m.tally.expired = true
		m.tally.fallback = fallback
	}
}

// Summary describes the run's conditions. A condition is available only if
// every observation supplied it, so a detector that stalled or a counter
// that went backwards mid-run leaves it unavailable, and its throttle
// increase absent: the windows' own records keep what was seen before.
func (m *Monitor) Summary() *ndjson.EnvironmentConditions {
	if m.policy.mode == ModeDisabled {
		return disabledSummary()
	}
	t := &m.tally
	return &ndjson.EnvironmentConditions{
		Checked:              true,
		Mode:                 m.policy.mode.String(),
		ProfileAvailability:  availability(t.observations > 0 && !t.profileGap),
		ProfileDetector:      m.profileDetector(),
		InitialProfile:       profileOf(t.initial),
		FinalProfile:         profileOf(t.final),
		ProfileChanges:       t.changes,
		DegradationAvail:     availability(t.observations > 0 && !t.profileGap && t.final.Detector == DetectorPPD),
		WorstDegradation:     orDefault(t.worst, DegradationUnknown),
		ThrottleAvailability: availability(m.events.continuous()),
		ThrottleEvents:       m.increase(&m.events),
		ThrottleMS:           m.increase(&m.millis),
		Windows:              t.windows,
		AffectedUnits:        t.affected,
		RecollectedUnits:     t.recollected,
		Pauses:               t.pauses,
		PausedNS:             t.pausedNS,
		BudgetExpired:        t.expired,
		FallbackUsed:         t.fallback,
	}
}

// profileDetector names the chosen profile detector, or Unavailable.
func (m *Monitor) profileDetector() string {
	if m.tally.initial.Available {
		return m.tally.initial.Detector
	}
	return Unavailable
}

// increase is a counter family's growth over the run, or nil unless the
// family stayed continuous throughout.
func (m *Monitor) increase(c *counterTrack) *int64 {
	if !c.continuous() {
		return nil
	}
	return ptr(c.growth())
}

func disabledSummary() *ndjson.EnvironmentConditions {
	return &ndjson.EnvironmentConditions{
		Mode:                ModeDisabled.String(),
		ProfileAvailability: NotChecked, ProfileDetector: DetectorNone,
		InitialProfile: ProfileUnknown, FinalProfile: ProfileUnknown,
		DegradationAvail: NotChecked, WorstDegradation: DegradationUnknown,
		ThrottleAvailability: NotChecked,
	}
}

func availability(ok bool) string {
	if ok {
		return Available
	}
	return Unavailable
}

func profileOf(r ProfileReading) string { return orDefault(r.Profile, ProfileUnknown) }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
