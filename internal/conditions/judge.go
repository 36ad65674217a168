package conditions

import (
	"fmt"
	"strings"
)

// Judge returns why o is unacceptable under l, or nothing when it is
// acceptable. Absence of evidence is acceptable only where l allows it.
//
// Linux has no thermal-pressure state, so the thermal threshold is applied
// to what Linux does report. A window in which throttle events or throttled
// milliseconds increased, or in which power-profiles-daemon reports any
// performance degradation, counts as serious: the hardware or the platform
// is already cutting performance. A window with a thermal signal and none of
// that counts as "no worse than fair", because nothing on Linux tells nominal
// from fair. So the default threshold (fair) refuses any new throttling;
// serious or critical accept it; and nominal can never be confirmed, which
// is treated like a missing thermal signal: unacceptable only under
// RequireThermalDetection.
func (l Limits) Judge(o Observation) []string {
	return append(l.judgeProfile(o.Profile), l.judgeThermal(o)...)
}

// judgeProfile applies the profile requirements.
func (l Limits) judgeProfile(p ProfileReading) []string {
	switch {
	case p.Profile == ProfileReduced && l.RequireNonreducedProfile:
		return []string{fmt.Sprintf("reduced profile %q from %s", p.Raw, p.Detector)}
	case p.Profile == ProfileUnknown && l.RequireProfileDetection && !p.Available:
		return []string{"no profile detected (" + p.Reason + ")"}
	case p.Profile == ProfileUnknown && l.RequireProfileDetection:
		return []string{fmt.Sprintf("unrecognized profile %q from %s", p.Raw, p.Detector)}
	}
	return nil
}

// judgeThermal applies the thermal threshold as translated above.
func (l Limits) judgeThermal(o Observation) []string {
	serious, detected := thermalEvidence(o)
	switch {
	case len(serious) > 0 && l.MaxThermalState < ThermalSerious:
		return serious
	case len(serious) > 0:
		return nil
	case !detected && l.RequireThermalDetection:
		return []string{"no thermal signal (" + strings.Join(o.thermalGaps(), "; ") + ")"}
	case l.MaxThermalState == ThermalNominal && l.RequireThermalDetection:
		return []string{"a nominal thermal state cannot be confirmed from throttle counters or degradation"}
	}
	return nil
}

// thermalEvidence lists the serious-equivalent signals in o and says whether
// any thermal signal was available at all.
func thermalEvidence(o Observation) (serious []string, detected bool) {
	if o.Events.Available && o.Events.Increase > 0 {
		serious = append(serious, fmt.Sprintf("thermal throttling: %d new events", o.Events.Increase))
	}
	if o.Millis.Available && o.Millis.Increase > 0 {
		serious = append(serious, fmt.Sprintf("thermal throttling: %d ms more", o.Millis.Increase))
	}
	degradation := o.Profile.Available && o.Profile.Detector == DetectorPPD
	if degradation && o.Profile.Degradation != DegradationNone {
		serious = append(serious, "performance degraded: "+o.Profile.Degradation)
	}
	return serious, o.Events.Available || o.Millis.Available || degradation
}

// thermalGaps says why each thermal signal is missing.
func (o Observation) thermalGaps() []string {
	gaps := []string{"throttle events: " + o.Events.Reason, "throttle time: " + o.Millis.Reason}
	switch {
	case !o.Profile.Available:
		gaps = append(gaps, "degradation: "+o.Profile.Reason)
	case o.Profile.Detector != DetectorPPD:
		gaps = append(gaps, "degradation: only power-profiles-daemon reports it")
	}
	return gaps
}
