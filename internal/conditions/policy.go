package conditions

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Mode is a policy's response to unacceptable conditions (seed:
// Operating_Conditions_Mode).
type Mode int

// Policy modes. The zero Mode is disabled.
const (
	ModeDisabled Mode = iota // do not probe or gate
	ModeObserve              // record the evidence and continue
	ModePause                // wait for acceptable conditions, then recollect
	ModeFail                 // stop the run at the next boundary
)

var modeNames = []string{ndjson.ConditionsDisabled, ndjson.ConditionsObserve, ndjson.ConditionsPause, ndjson.ConditionsFail}

func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// ParseMode reads a mode's String form.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("conditions mode %q: use disabled, observe, pause or fail", s)
}

// Fallback is what Pause does when its run budget runs out (seed:
// Condition_Pause_Fallback). The zero Fallback is unset, and Pause refuses
// it: the choice is never made silently.
type Fallback int

// Pause fallbacks.
const (
	FallbackObserve Fallback = iota + 1 // record the expiry and continue under observe
	FallbackFail                        // stop the run
)

func (f Fallback) String() string {
	switch f {
	case FallbackObserve:
		return ndjson.ConditionsObserve
	case FallbackFail:
		return ndjson.ConditionsFail
	}
	return fmt.Sprintf("Fallback(%d)", int(f))
}

// ParseFallback reads a fallback's String form.
func ParseFallback(s string) (Fallback, error) {
	switch s {
	case ndjson.ConditionsObserve:
		return FallbackObserve, nil
	case ndjson.ConditionsFail:
		return FallbackFail, nil
	}
	return 0, fmt.Errorf("pause fallback %q: use observe or fail", s)
}

// ThermalState orders thermal pressure (seed: Host_Thermal_State). The zero
// value is unknown: an observation result, never a threshold.
type ThermalState int

// Thermal states, mildest first.
const (
	ThermalUnknown ThermalState = iota
	ThermalNominal
	ThermalFair
	ThermalSerious
	ThermalCritical
)

var thermalNames = []string{"unknown", "nominal", "fair", "serious", "critical"}

func (t ThermalState) String() string {
	if t < 0 || int(t) >= len(thermalNames) {
		return fmt.Sprintf("ThermalState(%d)", int(t))
	}
	return thermalNames[t]
}

// ParseThermalState reads a threshold's String form; "unknown" is refused.
func ParseThermalState(s string) (ThermalState, error) {
	for i, n := range thermalNames[1:] {
		if s == n {
			return ThermalState(i + 1), nil
		}
	}
	return 0, fmt.Errorf("thermal state %q: use nominal, fair, serious or critical", s)
}
