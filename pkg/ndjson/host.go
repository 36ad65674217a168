// The records about the host: its fingerprint, fb-lock's claim,
// fb-gate's quiescence gate, operating conditions and fb-analyze's
// environment report.

package ndjson

// Host is the fingerprint of the machine a run was collected on.
type Host struct {
	OS        string `json:"os"`
	Kernel    string `json:"kernel"`
	Arch      string `json:"arch"`
	CPUModel  string `json:"cpu_model"`
	CPUs      int    `json:"cpus"`
	Governor  string `json:"governor"`
	GoVersion string `json:"go_version"`
	Hostname  string `json:"hostname"`
}

// Lock is fb-lock's host CPU claim (man fb-claim(5)). It precedes the run
// it covers in the stream.
type Lock struct {
	Header
	Tool string `json:"tool"`
	// Outcome is "held", "namespace_scoped", "busy" or "path_unusable".
	Outcome string `json:"outcome"`
	// Scope is "machine" (exclusive claim) or "cpus" (per-CPU claims).
	Scope     string `json:"scope"`
	CPUs      []int  `json:"cpus,omitempty"`
	Path      string `json:"path"`
	WaitedNS  int64  `json:"waited_ns"`
	TimeoutNS int64  `json:"timeout_ns"`
	PollNS    int64  `json:"poll_ns"`
	// Holders describes conflicting holders seen while waiting, from the
	// claim files' diagnostic content.
	Holders []string `json:"holders,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	// Required is --require-machine-scope.
	Required bool `json:"required"`
}

// Lock outcomes.
const (
	LockHeld            = "held"
	LockNamespaceScoped = "namespace_scoped"
	LockBusy            = "busy"
	LockPathUnusable    = "path_unusable"
)

// Gate is fb-gate's CPU quiescence preflight. It precedes the run it
// covers in the stream.
type Gate struct {
	Header
	// Outcome is "passed" or "timeout".
	Outcome        string  `json:"outcome"`
	WaitedNS       int64   `json:"waited_ns"`
	StableNS       int64   `json:"stable_ns"`
	TimeoutNS      int64   `json:"timeout_ns"`
	PollNS         int64   `json:"poll_ns"`
	MaxAveragePct  float64 `json:"max_average_pct"`
	MaxCorePct     float64 `json:"max_core_pct"`
	Polls          int     `json:"polls"`
	LastAveragePct float64 `json:"last_average_pct"`
	LastCorePct    float64 `json:"last_core_pct"`
	BusiestCPU     int     `json:"busiest_cpu"`
	CPUs           int     `json:"cpus"`
}

// Gate outcomes.
const (
	GatePassed  = "passed"
	GateTimeout = "timeout"
)

// Conditions is one observation of the host's operating conditions. Every
// field a detector could not supply says "unavailable" (or is absent),
// never a clean value.
type Conditions struct {
	// ProfileDetector is "platform_profile", "power_profiles_daemon" or
	// "unavailable"; Profile is "reduced", "balanced", "performance" or
	// "unknown".
	ProfileDetector string `json:"profile_detector"`
	Profile         string `json:"profile"`
	RawProfile      string `json:"raw_profile,omitempty"`
	// Degradation is power-profiles-daemon's PerformanceDegraded reason:
	// "none", "high_operating_temperature", "lap_detected", "other" or
	// "unknown".
	Degradation string `json:"degradation"`
	// ThrottleDetector is "thermal_throttle" or "unavailable"; the counts
	// are cumulative totals over the observed CPUs, present when available.
	ThrottleDetector string `json:"throttle_detector"`
	ThrottleEvents   *int64 `json:"throttle_events,omitempty"`
	ThrottleMS       *int64 `json:"throttle_ms,omitempty"`
	// Acceptable is the policy's judgement, and Why says what made the
	// observation unacceptable.
	Acceptable bool   `json:"acceptable"`
	Why        string `json:"why,omitempty"`
}

// Environment is fb-analyze's report of what the harness observed about
// the host during one run. Nothing in it adjusts any statistic.
type Environment struct {
	Header
	RunID              string                 `json:"run_id"`
	Watched            bool                   `json:"watched"`
	Attribution        string                 `json:"attribution"`
	Windows            int                    `json:"windows"`
	ObservedSamples    int                    `json:"observed_samples"`
	MeanForeignPct     float64                `json:"mean_foreign_pct"`
	PeakForeignPct     float64                `json:"peak_foreign_pct"`
	ContaminatedSample int                    `json:"contaminated_samples"`
	RetakenSamples     int                    `json:"retaken_samples"`
	Pauses             int                    `json:"pauses"`
	PausedNS           int64                  `json:"paused_ns"`
	BudgetExhausted    bool                   `json:"budget_exhausted"`
	Placement          string                 `json:"placement"`
	WatchedCPUs        []int                  `json:"watched_cpus,omitempty"`
	AttributionDiluted bool                   `json:"attribution_diluted"`
	Lock               string                 `json:"lock"`
	Gate               string                 `json:"gate"`
	Conditions         *EnvironmentConditions `json:"conditions,omitempty"`
}

// EnvironmentConditions summarizes the operating-condition observations.
type EnvironmentConditions struct {
	Checked              bool   `json:"checked"`
	Mode                 string `json:"mode"`
	ProfileAvailability  string `json:"profile_availability"`
	ProfileDetector      string `json:"profile_detector"`
	InitialProfile       string `json:"initial_profile"`
	FinalProfile         string `json:"final_profile"`
	ProfileChanges       int    `json:"profile_changes"`
	DegradationAvail     string `json:"degradation_availability"`
	WorstDegradation     string `json:"worst_degradation"`
	ThrottleAvailability string `json:"throttle_availability"`
	ThrottleEvents       *int64 `json:"throttle_events,omitempty"`
	ThrottleMS           *int64 `json:"throttle_ms,omitempty"`
	Windows              int    `json:"windows"`
	AffectedUnits        int    `json:"affected_units"`
	RecollectedUnits     int    `json:"recollected_units"`
	Pauses               int    `json:"pauses"`
	PausedNS             int64  `json:"paused_ns"`
	BudgetExpired        bool   `json:"budget_expired"`
	FallbackUsed         string `json:"fallback_used,omitempty"`
}

// Availability of a condition over a run (EnvironmentConditions'
// ProfileAvailability, DegradationAvail, ThrottleAvailability), and what a
// detector that could not supply a field says there.
const (
	NotChecked  = "not_checked"
	Unavailable = "unavailable"
	Available   = "available"
)

// Operating-conditions policy modes (ConditionsConfig.Mode,
// EnvironmentConditions.Mode) and pause fallbacks (OnTimeout,
// Window.Fallback).
const (
	ConditionsDisabled = "disabled"
	ConditionsObserve  = "observe"
	ConditionsPause    = "pause"
	ConditionsFail     = "fail"
)
