package conditions

import (
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// Clock is the monotonic nanosecond clock of the probes package.
type Clock = probes.Clock

// Monitor applies a policy to the host's conditions for one run. The
// collection engine calls Start before warmup, Check at every window
// boundary, Wait when the response is "pause", and Record and RecordPause to
// say how each window and wait ended; Summary then describes the run.
// All of it runs outside timed regions. A Monitor is not safe for
// concurrent use.
type Monitor struct {
	policy Policy
	det    Detectors
	clock  Clock
	sleep  func(time.Duration)

	started bool
	// profile is the detector chosen at Start, nil when none answered;
	// noProfile then says why.
	profile   ProfileDetector
	noProfile string
	events    counterTrack
	millis    counterTrack
	last      Observation
	start     ndjson.Conditions
	tally     tally
}

// NewMonitor returns a monitor applying p to the conditions d reports. clock
// and sleep pace Wait; nil means the real ones.
func NewMonitor(p Policy, d Detectors, clock Clock, sleep func(time.Duration)) *Monitor {
	if clock == nil {
		clock = monotonic{}
	}
	if sleep == nil {
		sleep = time.Sleep
	}
	return &Monitor{
		policy: p, det: d, clock: clock, sleep: sleep,
		events: counterTrack{name: "*_throttle_count"},
		millis: counterTrack{name: "*_throttle_total_time_ms"},
	}
}

// Policy returns the policy the monitor applies.
func (m *Monitor) Policy() Policy { return m.policy }

// Start takes the initial observation, before warmup and calibration: it
// chooses the profile detector for the run and the throttle baseline. It
// is judged like any boundary but is not a window. Calling it again returns
// the first result.
func (m *Monitor) Start() ndjson.Conditions {
	if m.started {
		return m.start
	}
	m.started = true
	if m.policy.mode == ModeDisabled {
		m.start = disabledRecord()
		return m.start
	}
	m.start, _ = m.judged(m.observeWith(m.chooseProfile()))
	return m.start
}

// Check observes the host at a window boundary and judges it. It starts the
// monitor first if Start was not called. A disabled policy probes nothing
// and always accepts.
func (m *Monitor) Check() (ndjson.Conditions, bool) {
	m.Start()
	if m.policy.mode == ModeDisabled {
		return disabledRecord(), true
	}
	m.tally.windows++
	return m.judged(m.observe())
}

// Last returns the most recent observation, whose Unavailable method says
// why each missing condition is missing.
func (m *Monitor) Last() Observation { return m.last }

// chooseProfile picks the first profile detector that answers, PPD then
// platform_profile, and returns its answer. The choice holds for the run,
// so values from different detectors are never compared.
func (m *Monitor) chooseProfile() ProfileReading {
	var why []string
	for _, d := range []ProfileDetector{m.det.PPD, m.det.Platform} {
		if d == nil {
			continue
		}
		r := d.Profile()
		if r.Available {
			m.profile = d
			return r
		}
		why = append(why, r.Reason)
	}
	m.noProfile = strings.Join(why, "; ")
	if m.noProfile == "" {
		m.noProfile = "no profile detector"
	}
	return unavailableProfile(m.noProfile)
}

// observe reads every detector once and folds the result into the tally.
func (m *Monitor) observe() Observation {
	if m.profile == nil {
		return m.observeWith(unavailableProfile(m.noProfile))
	}
	return m.observeWith(m.profile.Profile())
}

// observeWith completes an observation whose profile was already read.
func (m *Monitor) observeWith(p ProfileReading) Observation {
	o := Observation{Profile: p}
	var snap ThrottleSnapshot
	if m.det.Throttle != nil {
		snap = m.det.Throttle.Throttle()
	}
	o.Events = m.events.advance(snap.Events, snap.Unsupported)
	o.Millis = m.millis.advance(snap.Millis, snap.Unsupported)
	m.last = o
	m.tally.observe(o)
	return o
}

// judged turns o into a record carrying the policy's judgement.
func (m *Monitor) judged(o Observation) (ndjson.Conditions, bool) {
	c := o.Record()
	why := m.policy.limits.Judge(o)
	c.Acceptable, c.Why = len(why) == 0, strings.Join(why, "; ")
	return c, c.Acceptable
}

// disabledRecord is what a disabled policy reports: nothing was probed.
func disabledRecord() ndjson.Conditions {
	return ndjson.Conditions{
		ProfileDetector: Unavailable, Profile: ProfileUnknown,
		Degradation: DegradationUnknown, ThrottleDetector: Unavailable,
		Acceptable: true,
	}
}

// Response is the mode now in force: the policy's, except that a pause
// whose budget ran out gives way to its fallback, "observe" or "fail".
func (m *Monitor) Response() string {
	if m.policy.mode == ModePause && m.tally.expired {
		return m.policy.onTimeout.String()
	}
	return m.policy.mode.String()
}

// Expired names the pause fallback, "observe" or "fail"; it is "" unless the
// mode is Pause.
func (m *Monitor) Expired() string {
	if m.policy.mode != ModePause {
		return ""
	}
	return m.policy.onTimeout.String()
}

// monotonic is the real Clock.
type monotonic struct{}

var monotonicBase = time.Now()

func (monotonic) Now() int64 { return int64(time.Since(monotonicBase)) }
