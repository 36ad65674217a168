// The records of the CI gate: fb-noise's noise profile and fb-check's
// outcome.

package ndjson

// MachineClass is the part of a host fingerprint a noise profile is valid
// for: the same OS, architecture, CPU model and CPU count.
type MachineClass struct {
	OS       string `json:"os"`
	Arch     string `json:"arch"`
	CPUModel string `json:"cpu_model"`
	CPUs     int    `json:"cpus"`
}

// Noise is a noise profile from fb-noise (schema 1.4): the spread of each
// metric across whole invocations of one benchmark command on one machine
// class. NoisePct = 1.96 * 1.4826 * MAD of the deltas against the first
// invocation; Converged says whether every metric's estimate changed by
// less than the tolerance between the last two invocations.
type Noise struct {
	Header
	Command      []string          `json:"command"`
	Invocations  int               `json:"invocations"`
	MinRuns      int               `json:"min_runs"`
	MaxRuns      int               `json:"max_runs"`
	TolerancePct float64           `json:"tolerance_pct"`
	Converged    bool              `json:"converged"`
	Class        MachineClass      `json:"class"`
	Tags         map[string]string `json:"tags,omitempty"`
	Created      string            `json:"created"`
	ToolVersion  string            `json:"tool_version"`
	Metrics      []NoiseMetric     `json:"metrics"`
}

// NoiseMetric is the calibrated noise of one metric. Kind "level" is a
// case's own value (Metric "time": mean time per operation; otherwise an
// axis name: its mean) as a relative delta in percent; kind "change" is a
// paired comparison's change of Case against Reference, as a delta in
// percentage points.
type NoiseMetric struct {
	Metric    string  `json:"metric"`
	Kind      string  `json:"kind"`
	Case      string  `json:"case"`
	Reference string  `json:"reference,omitempty"`
	NoisePct  float64 `json:"noise_pct"`
	N         int     `json:"n"`
}

// Noise metric kinds.
const (
	NoiseLevel  = "level"
	NoiseChange = "change"
)

// Check is fb-check's judgement of one analyzed run (schema 1.4).
// Outcome is "pass", "regressed" or "cannot judge"; Advisory is true when
// the check could not be trusted (a noise profile for another machine
// class, an allowed fingerprint mismatch) and Reasons say why.
type Check struct {
	Header
	RunID    string      `json:"run_id"`
	Outcome  string      `json:"outcome"`
	Advisory bool        `json:"advisory,omitempty"`
	Reasons  []string    `json:"reasons,omitempty"`
	Noise    string      `json:"noise,omitempty"`
	Items    []CheckItem `json:"items"`
}

// CheckItem is one checked metric: Kind "time", "memory" or "counter";
// Value is the change (percent, or the counter's difference), Threshold
// the practical threshold, Window the statistical window it had to clear
// (percent; absent for counters), Outcome "pass", "fail" or "skip".
type CheckItem struct {
	Kind      string  `json:"kind"`
	Subject   string  `json:"subject"`
	Metric    string  `json:"metric"`
	Design    Design  `json:"design"`
	Value     float64 `json:"value"`
	Unit      string  `json:"unit"`
	Threshold float64 `json:"threshold"`
	Window    float64 `json:"window,omitempty"`
	Outcome   string  `json:"outcome"`
	Why       string  `json:"why,omitempty"`
}

// Check outcomes.
const (
	CheckPass        = "pass"
	CheckRegressed   = "regressed"
	CheckCannotJudge = "cannot judge"
	CheckItemPass    = "pass"
	CheckItemFail    = "fail"
	CheckItemSkip    = "skip"
)
