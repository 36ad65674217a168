// Package conditions observes the host's operating conditions on Linux — the
// configured performance profile (power-profiles-daemon or the ACPI
// platform_profile), PPD's performance-degradation reason and the CPU
// thermal-throttle counters — and judges them against an observe, pause or
// fail policy at window boundaries, outside timed regions.
//
// A detector that cannot answer is reported as unavailable, with a reason,
// and never as a clean host: an unknown profile is not a balanced one, and
// missing throttle counters are not zero throttling. Every detector reads
// through a small interface (an fs.FS rooted at "/", a D-Bus client) so the
// logic is tested on fixtures and the real machine is tested separately.
package conditions

import "github.com/flybench/flybench/pkg/ndjson"

// Availability of a condition over a run (seed: Condition_Availability).
const (
	NotChecked  = ndjson.NotChecked
	Unavailable = ndjson.Unavailable
	Available   = ndjson.Available
)

// Detectors named in records. DetectorNone is used only in a summary whose
// policy was disabled; a checked condition without a detector says
// Unavailable.
const (
	DetectorPPD             = "power_profiles_daemon"
	DetectorPlatformProfile = "platform_profile"
	DetectorThermalThrottle = "thermal_throttle"
	DetectorNone            = "none"
)

// Configured performance profiles (seed: Performance_Profile). Unknown is
// distinct from balanced and never counts as a good condition.
const (
	ProfileUnknown     = "unknown"
	ProfileReduced     = "reduced"
	ProfileBalanced    = "balanced"
	ProfilePerformance = "performance"
)

// Performance-degradation reasons (seed: Performance_Degradation).
const (
	DegradationUnknown         = "unknown"
	DegradationNone            = "none"
	DegradationHighTemperature = "high_operating_temperature"
	DegradationLapDetected     = "lap_detected"
	DegradationOther           = "other"
)
