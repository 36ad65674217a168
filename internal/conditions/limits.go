package conditions

import (
	"errors"
	"fmt"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Limits say which conditions are acceptable and how long a window is. They
// are shared by every mode.
type Limits struct {
	// RequireNonreducedProfile makes a reduced configured profile
	// unacceptable.
	RequireNonreducedProfile bool
	// RequireProfileDetection makes an unknown profile unacceptable, whether
	// no detector answered or its answer is not recognized.
	RequireProfileDetection bool
	// MaxThermalState is the highest acceptable thermal state. On Linux a
	// window with new throttling or a PPD degradation counts as serious; see
	// Limits.Judge.
	MaxThermalState ThermalState
	// RequireThermalDetection makes the absence of every thermal signal
	// (throttle counters and PPD degradation) unacceptable.
	RequireThermalDetection bool
	// Window is the shortest collection window between two checks.
	Window time.Duration
}

// DefaultLimits are the seed's defaults. Start from them and change fields.
var DefaultLimits = Limits{
	RequireNonreducedProfile: true,
	MaxThermalState:          ThermalFair,
	Window:                   50 * time.Millisecond,
}

// Validate refuses limits that could never be applied.
func (l Limits) Validate() error {
	switch {
	case l.MaxThermalState < ThermalNominal || l.MaxThermalState > ThermalCritical:
		return fmt.Errorf("maximum thermal state %v: use nominal, fair, serious or critical", l.MaxThermalState)
	case l.Window <= 0:
		return fmt.Errorf("conditions window %v must be positive", l.Window)
	}
	return nil
}

// PauseTiming paces a pause.
type PauseTiming struct {
	// Stable is how long observations must stay acceptable, polled every
	// Poll, before collection resumes.
	Stable, Poll time.Duration
	// MaxPause is the total wait budget for the whole run.
	MaxPause time.Duration
	// Rewarm is untimed work after conditions recover; zero skips it.
	Rewarm time.Duration
}

// DefaultPauseTiming is the seed's pause pacing.
var DefaultPauseTiming = PauseTiming{
	Stable: 500 * time.Millisecond, Poll: 100 * time.Millisecond,
	MaxPause: 30 * time.Second, Rewarm: 50 * time.Millisecond,
}

// Validate refuses pacing under which a pause could never end well.
func (p PauseTiming) Validate() error {
	switch {
	case p.Stable <= 0 || p.Poll <= 0 || p.MaxPause <= 0:
		return fmt.Errorf("stable time %v, poll interval %v and maximum pause %v must be positive", p.Stable, p.Poll, p.MaxPause)
	case p.Rewarm < 0:
		return fmt.Errorf("rewarm time %v is negative", p.Rewarm)
	case p.MaxPause < p.Stable:
		return fmt.Errorf("maximum pause %v is shorter than the stable time %v, so no pause could ever resume", p.MaxPause, p.Stable)
	case p.Poll > p.Stable:
		return fmt.Errorf("poll interval %v is longer than the stable time %v, so stability would rest on two readings", p.Poll, p.Stable)
	}
	return nil
}

// Policy is a complete operating-conditions policy (seed:
// Operating_Conditions_Policy). Build one with Observe, Pause or Fail; the
// zero Policy is disabled. Its fields are private so no policy carries an
// implicit response.
type Policy struct {
	mode      Mode
	limits    Limits
	pause     PauseTiming
	onTimeout Fallback
}

// Observe returns a policy that records unacceptable conditions and
// continues.
func Observe(l Limits) (Policy, error) {
	if err := l.Validate(); err != nil {
		return Policy{}, err
	}
	return Policy{mode: ModeObserve, limits: l}, nil
}

// Fail returns a policy that stops the run at the first unacceptable
// boundary.
func Fail(l Limits) (Policy, error) {
	if err := l.Validate(); err != nil {
		return Policy{}, err
	}
	return Policy{mode: ModeFail, limits: l}, nil
}

// Pause returns a policy that waits for acceptable, stable conditions and
// recollects the affected window. onTimeout says what happens when the run's
// pause budget runs out; it has no default.
func Pause(onTimeout Fallback, l Limits, t PauseTiming) (Policy, error) {
	if onTimeout != FallbackObserve && onTimeout != FallbackFail {
		return Policy{}, errors.New("pause needs an explicit fallback for an expired budget: observe or fail")
	}
	if err := l.Validate(); err != nil {
		return Policy{}, err
	}
	if err := t.Validate(); err != nil {
		return Policy{}, err
	}
	return Policy{mode: ModePause, limits: l, pause: t, onTimeout: onTimeout}, nil
}

// Mode returns the policy's mode.
func (p Policy) Mode() Mode { return p.mode }

// Limits returns what the policy accepts.
func (p Policy) Limits() Limits { return p.limits }

// PauseTiming returns the pause pacing; it is zero unless the mode is Pause.
func (p Policy) PauseTiming() PauseTiming { return p.pause }

// OnTimeout returns the pause fallback; it is zero unless the mode is Pause.
func (p Policy) OnTimeout() Fallback { return p.onTimeout }

// Window returns the shortest window between checks.
func (p Policy) Window() time.Duration { return p.limits.Window }

// Rewarm returns the untimed rewarm after a pause.
func (p Policy) Rewarm() time.Duration { return p.pause.Rewarm }

// The settings ParsePolicy's field errors name.
const (
	FieldMode      = "conditions.Mode"
	FieldOnTimeout = "conditions.OnTimeout"
	FieldThermal   = "conditions.MaxThermalState"
)

// ParsePolicy builds the policy a mode names, as written: observe, fail,
// or pause with onTimeout (observe or fail, never defaulted) and timing t;
// thermal is the highest acceptable thermal state. A bad mode, fallback or
// state is a *field.Error; limits the policy refuses are its own errors.
func ParsePolicy(mode, onTimeout, thermal string, l Limits, t PauseTiming) (Policy, error) {
	state, err := ParseThermalState(thermal)
	if err != nil {
		return Policy{}, field.Errorf(FieldThermal, thermal, "%s: %v", field.Name(FieldThermal), err)
	}
	l.MaxThermalState = state
	switch mode {
	case ndjson.ConditionsObserve:
		return Observe(l)
	case ndjson.ConditionsFail:
		return Fail(l)
	case ndjson.ConditionsPause:
		if onTimeout == "" {
			return Policy{}, field.Errorf(FieldOnTimeout, onTimeout, "%s pause needs %s observe|fail: what an exhausted pause budget does is never silently defaulted",
				field.Name(FieldMode), field.Name(FieldOnTimeout))
		}
		fb, err := ParseFallback(onTimeout)
		if err != nil {
			return Policy{}, field.Errorf(FieldOnTimeout, onTimeout, "%s: %v", field.Name(FieldOnTimeout), err)
		}
		return Pause(fb, l, t)
	}
	return Policy{}, field.Errorf(FieldMode, mode, "%s %q: use observe, pause or fail", field.Name(FieldMode), mode)
}
