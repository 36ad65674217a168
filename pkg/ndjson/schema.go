// Package ndjson defines the flybench record stream: one JSON object per line,
// each carrying its record type and the schema version, and the reader and
// writer every tool uses to exchange it.
//
// The schema is documented field by field in man/fb-stream.5. A reader accepts
// any minor version of the major version it knows and refuses other majors;
// unknown record types are passed through untouched by every stage.
package ndjson

// Schema version carried by every record. Additions that old readers can
// ignore bump the minor number; anything else bumps the major number.
const (
	Major   = 1
	Minor   = 5
	Version = "1.6"
	// LegacyVersion is the last version before the robust decision
	// estimate; fb-analyze --estimator legacy stamps its records with it,
	// since they have exactly that version's shape.
	LegacyVersion = "1.2"
)

// Record types produced by the measuring tools.
const (
	TypeRun         = "run"
	TypeCalibration = "calibration"
	TypeSample      = "sample"
	TypeEnd         = "end"
	// TypeLook is a checkpoint of a run that samples until a decision or
	// an interval width (schema 1.3).
	TypeLook = "look"
	// TypeCounter is a deterministic count measured once per case outside
	// the timed schedule, e.g. instructions under cachegrind (schema 1.4).
	TypeCounter = "counter"
	// TypeBlock closes one process block of a run collected with
	// --invocations (schema 1.4).
	TypeBlock = "block"
)

// Record types produced by the host tools and the interference watch.
const (
	TypeLock   = "lock"
	TypeGate   = "gate"
	TypeWindow = "window"
)

// Record types produced by fb-analyze.
const (
	TypeAnalysis    = "analysis"
	TypeSummary     = "summary"
	TypeComparison  = "comparison"
	TypeEnvironment = "environment"
	// TypeSuite is the geometric-mean speedup across the benchmarks of a
	// suite (several runs, or 3-16 cases), schema 1.4.
	TypeSuite = "suite"
	// TypeAA is the false-alarm summary of a series of A/A runs
	// (fb-pair --aa), schema 1.5.
	TypeAA = "aa"
)

// Record types produced by fb-noise and fb-check (schema 1.4).
const (
	TypeNoise = "noise"
	TypeCheck = "check"
)

// Header is the part every record shares.
type Header struct {
	Type string `json:"type"`
	V    string `json:"v"`
}

func (h *Header) header() *Header { return h }

// Record is any record this package knows how to write.
type Record interface {
	header() *Header
	// Kind is the record's type field.
	Kind() string
}

func (*Run) Kind() string         { return TypeRun }
func (*Calibration) Kind() string { return TypeCalibration }
func (*Sample) Kind() string      { return TypeSample }
func (*End) Kind() string         { return TypeEnd }
func (*Look) Kind() string        { return TypeLook }
func (*Analysis) Kind() string    { return TypeAnalysis }
func (*Summary) Kind() string     { return TypeSummary }
func (*Comparison) Kind() string  { return TypeComparison }
func (*Lock) Kind() string        { return TypeLock }
func (*Gate) Kind() string        { return TypeGate }
func (*Window) Kind() string      { return TypeWindow }
func (*Environment) Kind() string { return TypeEnvironment }
func (*Counter) Kind() string     { return TypeCounter }
func (*Suite) Kind() string       { return TypeSuite }
func (*AA) Kind() string          { return TypeAA }
func (*Noise) Kind() string       { return TypeNoise }
func (*Check) Kind() string       { return TypeCheck }
func (*Block) Kind() string       { return TypeBlock }

// Run opens a measurement: who measured what, how, on which host and clock.
// Records up to the next run record belong to it.
type Run struct {
	Header
	RunID       string `json:"run_id"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"tool_version"`
	Started     string `json:"started"`
	// Mode is how an operation is executed: "exec" (a command per logical operation).
	Mode string `json:"mode"`
	// Design is the collection schedule: "single", "paired", "rounds" or "sequential".
	Design string `json:"design"`
	// Batching is "shared-iterations" (every case of a unit runs the same
	// number of operations) or "equal-time" (each case's batch sized
	// toward an equal timed slice).
	Batching string `json:"batching"`
	Seed     uint64 `json:"seed"`
	Config   Config `json:"config"`
	Cases    []Case `json:"cases"`
	Host     Host   `json:"host"`
	Clock    Clock  `json:"clock"`
	// Axes describes every requested axis (wall time first) and how its
	// probe came up; samples then carry a value or a status for each.
	Axes []AxisInfo `json:"axes,omitempty"`
	// Timer says which clock op_ns comes from; absent means wall time.
	Timer *Timer `json:"timer,omitempty"`
	// Tags are the user's own fingerprint fields (--tag KEY=VALUE):
	// revision, compiler flags, anything a baseline must match (schema 1.4).
	Tags map[string]string `json:"tags,omitempty"`
	// Source names the tool a stream was imported from ("hyperfine");
	// absent for a stream flybench collected (schema 1.4).
	Source string `json:"source,omitempty"`
}

// Timer is the primary timer of a run. Kind "wall" is the harness's clock
// around each batch; "self" is the elapsed time the batch process or
// worker reports for its own iterations (Axis names it: "elapsed_ns" or a
// primary custom axis), with its source and resolution; "cpu" is the user
// plus system CPU time of each batch (--timer cpu: the runs' wait4 rusage,
// or the worker's CPU-time clock), with wall time kept as the axis "wall".
// Note says what the timer includes, e.g. process start-up for a
// wall-timed batch.
type Timer struct {
	Kind         string  `json:"kind"`
	Axis         string  `json:"axis,omitempty"`
	Source       string  `json:"source,omitempty"`
	ResolutionNS float64 `json:"resolution_ns,omitempty"`
	Note         string  `json:"note,omitempty"`
}

// Timer kinds.
const (
	TimerWall = "wall"
	TimerSelf = "self"
	TimerCPU  = "cpu"
)

// KindOf is the kind of a run's timer; a run that records none is timed
// by wall time.
func (t *Timer) KindOf() string {
	if t == nil || t.Kind == "" {
		return TimerWall
	}
	return t.Kind
}

// TimerFloorNS is the quantization floor per operation of a batch of iter
// operations: the nominal resolution of the clock op_ns comes from (the
// primary timer's when it is not wall time and records one) divided by
// iter. Exec mode's CPU timer reads every run's rusage on its own, each
// truncated to its resolution, so its floor does not shrink with the batch.
func (r *Run) TimerFloorNS(iter int64) float64 {
	res := r.Clock.NominalNS
	if t := r.Timer; t.KindOf() != TimerWall && t.ResolutionNS > 0 {
		res = t.ResolutionNS
	}
	if r.Mode == "exec" && r.Timer.KindOf() == TimerCPU {
		return res
	}
	return res / float64(iter)
}

// AxisInfo is an axis's provenance: what it measures, what it covers, how
// well it belongs to the operation, which way is better, and whether its
// probe opened (status "collected") or why not.
type AxisInfo struct {
	Name          string `json:"name"`
	Unit          string `json:"unit"`
	Family        string `json:"family"`
	Scope         string `json:"scope"`
	Attribution   string `json:"attribution"`
	Direction     string `json:"direction"`
	Normalization string `json:"normalization"`
	Status        string `json:"status"`
	Reason        string `json:"reason,omitempty"`
	// Custom axes (family "custom") also carry their declaration: what a
	// reported value means, how it is compared, and whether it is the
	// run's primary timer with the timing source and its resolution.
	Semantics  string  `json:"semantics,omitempty"`
	Comparison string  `json:"comparison,omitempty"`
	Primary    bool    `json:"primary,omitempty"`
	Source     string  `json:"source,omitempty"`
	Resolution float64 `json:"resolution,omitempty"`
}

// AxisValue is one axis in one sample: a value with status "collected", or
// an unavailable status and no value, never a stand-in zero.
type AxisValue struct {
	S string   `json:"s"`
	V *float64 `json:"v,omitempty"`
	// R is a reason particular to this sample, when it has one.
	R string `json:"r,omitempty"`
}

// Collected makes a collected AxisValue.
func Collected(v float64) AxisValue { return AxisValue{S: "collected", V: &v} }

// Telemetry is the run's own footprint during one batch, sampled outside
// the timed region: CPU of this tool and the batch's processes per wall
// time (100 = one core busy), and resident memory (this tool plus the
// largest peak of the batch's processes).
type Telemetry struct {
	CPUPct   float64 `json:"cpu_pct"`
	RSSBytes int64   `json:"rss_bytes"`
}

// Config is the complete measurement policy of a run.
type Config struct {
	WarmupNS      int64 `json:"warmup_ns"`
	MeasurementNS int64 `json:"measurement_ns"`
	MaxSamplingNS int64 `json:"max_sampling_ns"`
	Samples       int   `json:"samples"`
	// SamplesRule says how the sample count was chosen when Samples is 0
	// (automatic, schema 1.3): the calibration records then carry the
	// count and the slice.
	SamplesRule   string `json:"samples_rule,omitempty"`
	MinSampleNS   int64  `json:"min_sample_ns"`
	MaxIterations int64  `json:"max_iterations"`
	SliceNS       int64  `json:"slice_ns"`
	// SizeSpread is the factor over which the batch sizes of successive
	// units were varied around the calibrated ones, every case of a unit
	// scaled alike (log-uniform, mean 1; each sample's iter is its size);
	// absent for one fixed size per case (schema 1.5).
	SizeSpread        float64  `json:"size_spread,omitempty"`
	SubtractTimerCost bool     `json:"subtract_timer_cost"`
	Shell             bool     `json:"shell"`
	IgnoreFailure     bool     `json:"ignore_failure"`
	ShowOutput        bool     `json:"show_output"`
	Prepare           string   `json:"prepare,omitempty"`
	Setup             string   `json:"setup,omitempty"`
	Cleanup           string   `json:"cleanup,omitempty"`
	Metrics           []string `json:"metrics"`
	// Conclude, like Prepare, Setup and Cleanup, is a hook given once for
	// every case; hooks given one per case are on the cases (Case.Hooks)
	// instead (schema 1.4).
	Conclude string `json:"conclude,omitempty"`
	// Input is the file the commands read as stdin (--input), absent for
	// /dev/null; Output is where their stdout went (--output): "pipe",
	// "inherit" or a file, absent for /dev/null (schema 1.4).
	Input  string `json:"input,omitempty"`
	Output string `json:"output,omitempty"`
	// Until is the stopping rule of a run that samples until a decision
	// or an interval width (schema 1.3); absent for a fixed sample count.
	Until *Until `json:"until,omitempty"`
	// Watch, Placement and Conditions are present when enabled.
	Watch      *WatchConfig      `json:"watch,omitempty"`
	Placement  *Placement        `json:"placement,omitempty"`
	Conditions *ConditionsConfig `json:"conditions,omitempty"`
	// Invocations is the number of process blocks (--invocations K) the
	// whole per-case collection is repeated in; absent for one (schema 1.4).
	Invocations int `json:"invocations,omitempty"`
	// ProcessDesign orders the blocks: "single" (one case), "ab-ba" (two)
	// or "williams" (3 to 16); ProcessCycle is the length in blocks of its
	// joint supercycle, over which orders and orientations balance
	// (schema 1.4).
	ProcessDesign string `json:"process_design,omitempty"`
	ProcessCycle  int    `json:"process_cycle,omitempty"`
	// Layout is the memory-layout policy of a run whose cases start
	// processes (exec and batch modes); absent otherwise (schema 1.4).
	Layout *Layout `json:"layout,omitempty"`
	// AA places a run in a series of A/A runs (fb-pair --aa): one command
	// measured against itself; absent otherwise (schema 1.5).
	AA *AASeries `json:"aa,omitempty"`
	// Rotation says how often a worker-mode run replaced its workers
	// with fresh processes, each set a process block whose samples carry
	// proc and which a block record closes: "auto: ..." (the rule) or
	// "every N units"; absent when one process per side served the whole
	// run (schema 1.6).
	Rotation string `json:"rotation,omitempty"`
}

// AASeries is one run's place in a series of A/A runs: the series' id,
// the run's index from 0 and the number of runs asked for.
type AASeries struct {
	Series string `json:"series"`
	Index  int    `json:"index"`
	Runs   int    `json:"runs"`
}

// Layout says whether the environment a case's processes start with was
// padded to a per-unit length (layout-bias randomization), and what the
// kernel randomizes on its own.
type Layout struct {
	// Randomized is true when every unit's processes started with EnvVar
	// padded to a length drawn from the run's seed and the unit (0 to
	// MaxPad bytes, recorded per sample as layout_pad).
	Randomized bool   `json:"randomized"`
	EnvVar     string `json:"env_var,omitempty"`
	MaxPad     int    `json:"max_pad,omitempty"`
	// ASLR is the kernel's randomize_va_space ("0" off, "1" stack and
	// mmap, "2" also the heap), "" when unknown (not Linux).
	ASLR string `json:"aslr,omitempty"`
	// NoRandomize is true when the tool ran with the ADDR_NO_RANDOMIZE
	// personality (setarch -R), which its commands inherit: their stack
	// starts at the same address on every exec.
	NoRandomize bool `json:"no_randomize,omitempty"`
	// StackRandomized says whether the kernel moved the commands' stack
	// per exec, within its page too: "yes", "no" or "unknown".
	StackRandomized string `json:"stack_randomized,omitempty"`
	Note            string `json:"note,omitempty"`
}

// Until is a sequential stopping rule. Rule "decision" stops at the
// first look where every comparison's interval clears or fits inside
// ±ThresholdPct, at the look's share of the error rate (Spending);
// "width" stops when every interval's half-width is at most WidthPct
// percent (of the change, or for a single case of its mean), at the
// nominal confidence. MaxTimeNS bounds the whole run's wall time.
type Until struct {
	Rule          string  `json:"rule"`
	WidthPct      float64 `json:"width_pct,omitempty"`
	MaxTimeNS     int64   `json:"max_time_ns"`
	ConfidencePct float64 `json:"confidence_pct"`
	ThresholdPct  float64 `json:"threshold_pct"`
	Estimator     string  `json:"estimator"`
	Seed          uint64  `json:"seed"`
	Resamples     int     `json:"resamples"`
	// Spending says how a decision rule spends the error rate over looks.
	Spending string `json:"spending,omitempty"`
}

// WatchConfig is the interference-watch policy of a run.
type WatchConfig struct {
	Response      string  `json:"response"`
	MaxForeignPct float64 `json:"max_foreign_pct"`
	WindowNS      int64   `json:"window_ns"`
	MaxRetakes    int     `json:"max_retakes"`
	SettleNS      int64   `json:"settle_ns"`
	MaxPauseNS    int64   `json:"max_pause_ns"`
	RewarmNS      int64   `json:"rewarm_ns"`
}

// Placement is where the benchmarked commands were pinned. Outcome is
// "strict" (bound to CPU) or "rejected" (the request failed, Reason says
// why; the run continued unplaced).
type Placement struct {
	CPU         int    `json:"cpu"`
	Outcome     string `json:"outcome"`
	WatchedCPUs []int  `json:"watched_cpus,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// ConditionsConfig is the operating-conditions policy of a run.
type ConditionsConfig struct {
	Mode                     string `json:"mode"`
	RequireNonreducedProfile bool   `json:"require_nonreduced_profile"`
	RequireProfileDetection  bool   `json:"require_profile_detection"`
	RequireThermalDetection  bool   `json:"require_thermal_detection"`
	StableNS                 int64  `json:"stable_ns,omitempty"`
	PollNS                   int64  `json:"poll_ns,omitempty"`
	MaxPauseNS               int64  `json:"max_pause_ns,omitempty"`
	OnTimeout                string `json:"on_timeout,omitempty"`
}

// Case is one operation being measured. Index 0 is the reference.
type Case struct {
	Index   int      `json:"index"`
	Name    string   `json:"name"`
	Command string   `json:"command"`
	Argv    []string `json:"argv"`
	// Role is RoleReferenceWorkload for the fixed workload of --reference,
	// which rides the schedule as the last case and is the denominator of
	// every other case's normalized score; absent for a measured case
	// (schema 1.4).
	Role string `json:"role,omitempty"`
	// WorkUnits is the logical work one operation of the case completes
	// (--work-units: items processed, requests served), which turns its
	// time into a throughput; absent when not declared (schema 1.4).
	WorkUnits float64 `json:"work_units,omitempty"`
	// Params are the parameter values of a case imported from a
	// parameterized benchmark (hyperfine --parameter-scan or
	// --parameter-list: name to value, as that tool recorded them) or
	// expanded from an fb-pair scan (--parameter-scan, --parameter-list);
	// absent otherwise (schema 1.4).
	Params map[string]string `json:"params,omitempty"`
	// Hooks are the case's own hook commands, when they were given one
	// per case; absent otherwise (schema 1.4).
	Hooks *CaseHooks `json:"hooks,omitempty"`
}

// CaseHooks are one case's untimed hook commands: Prepare before and
// Conclude after every batch of the case, Setup once before warm-up and
// Cleanup once at the end. Empty ones are absent.
type CaseHooks struct {
	Prepare  string `json:"prepare,omitempty"`
	Conclude string `json:"conclude,omitempty"`
	Setup    string `json:"setup,omitempty"`
	Cleanup  string `json:"cleanup,omitempty"`
}

// RoleReferenceWorkload marks the case that normalizes the others.
const RoleReferenceWorkload = "reference-workload"

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

// Clock characterizes the timer every sample was read from.
type Clock struct {
	Backend string `json:"backend"`
	// NominalNS is the resolution the platform reports (clock_getres).
	NominalNS float64 `json:"nominal_ns"`
	// ObservedStepNS is the smallest positive difference between adjacent reads, 0 if none.
	ObservedStepNS float64 `json:"observed_step_ns"`
	ReadMedianNS   float64 `json:"read_median_ns"`
	ReadMinNS      float64 `json:"read_min_ns"`
	// SubtractNS is subtracted once from every batch; 0 unless timer-cost subtraction is on.
	SubtractNS float64 `json:"subtract_ns"`
}

// Calibration records the batch size chosen for one case.
type Calibration struct {
	Header
	Case       int     `json:"case"`
	Name       string  `json:"name"`
	Iterations int64   `json:"iterations"`
	TargetNS   int64   `json:"target_ns"`
	EstimateNS float64 `json:"estimate_ns"`
	DurationNS int64   `json:"duration_ns"`
	Batches    int     `json:"batches"`
	// FloorNS is the clock quantization floor per operation: the nominal
	// resolution amortized over Iterations.
	FloorNS float64 `json:"floor_ns"`
	// Capped names the bound that limited Iterations: "", "max-iterations" or "slower-side".
	Capped string `json:"capped,omitempty"`
	// Samples is the run's sample count per case, as chosen (schema 1.3).
	Samples int `json:"samples,omitempty"`
	// Proc is the process block calibrated, in a run with --invocations
	// (schema 1.4).
	Proc *ProcessRef `json:"proc,omitempty"`
}

// Sample is one timed batch of one case.
type Sample struct {
	Header
	Case int `json:"case"`
	// Unit is the pair, round or (for single and sequential designs) sample index, from 0.
	Unit int `json:"unit"`
	// Pos is the execution position of this case inside its unit, from 0.
	Pos int `json:"pos"`
	// Seq is the order of this batch in the whole run, from 0.
	Seq  int   `json:"seq"`
	Iter int64 `json:"iter"`
	// WallNS is the raw elapsed time of the whole batch.
	WallNS int64 `json:"wall_ns"`
	// OpNS is the per-operation time: (WallNS - clock.subtract_ns) / Iter,
	// SelfNS / Iter when the run's timer is self-reported, or CPUNS / Iter
	// when it is CPU time.
	OpNS float64 `json:"op_ns"`
	// SelfNS is the batch's self-reported elapsed time (the primary timer).
	SelfNS *float64 `json:"self_ns,omitempty"`
	// CPUNS is the batch's user plus system CPU time (the primary timer
	// under --timer cpu).
	CPUNS *int64 `json:"cpu_ns,omitempty"`
	// Axes holds every requested axis except wall time, by name.
	Axes map[string]AxisValue `json:"axes,omitempty"`
	Tele *Telemetry           `json:"tele,omitempty"`
	// Proc is the process block (and its attempt) the sample was taken
	// in, in a run with --invocations: samples with one Proc come from one
	// process instance per case (schema 1.4).
	Proc *ProcessRef `json:"proc,omitempty"`
	// LayoutPad is the length in bytes of the environment padding every
	// process of the sample's batch started with, in a run whose layout
	// is randomized (Config.Layout); the same for every case of a unit
	// (schema 1.4).
	LayoutPad *int `json:"layout_pad,omitempty"`
}

// ProcessRef names one attempt at one process block (schema 1.4).
type ProcessRef struct {
	// Block is the block's index in the run's process design, from 0.
	Block int `json:"block"`
	// Attempt counts the block's attempts from 0; --retry-failed adds one.
	Attempt int `json:"attempt"`
}

// Block closes one attempt at one process block of a run collected with
// --invocations (schema 1.4): the whole per-case collection, in fresh
// processes. It is written when the block ends, however it ends; only a
// "complete" block's samples are a process-level replicate.
type Block struct {
	Header
	RunID   string `json:"run_id"`
	Block   int    `json:"block"`
	Attempt int    `json:"attempt"`
	// Order is the case order of the block: the order its processes
	// started in and the order of its first pair or round.
	Order []int `json:"order"`
	// Orientation is "AB" or "BA" for two cases, "forward" or "reverse"
	// (the design's row, or that row reversed) for three or more; absent
	// for one case.
	Orientation string `json:"orientation,omitempty"`
	// Status is "complete", "interrupted" or "failed"; Reason says why a
	// block is not complete.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Samples counts the block's samples in the stream, per case.
	Samples []int `json:"samples"`
	// PIDs are the process IDs of the block's worker of each case, in
	// worker mode.
	PIDs []int `json:"pids,omitempty"`
}

// Block statuses (schema 1.4).
const (
	BlockComplete    = "complete"
	BlockInterrupted = "interrupted"
	BlockFailed      = "failed"
)

// End closes a run. A stream without one was cut short.
type End struct {
	Header
	RunID string `json:"run_id"`
	// Reason is "completed", "budget", "interrupted" or "failed".
	Reason string `json:"reason"`
	Error  string `json:"error,omitempty"`
	// Units is the number of complete samples, pairs or rounds kept.
	Units int `json:"units"`
	// Samples is the number of samples kept per case.
	Samples []int `json:"samples"`
	// Retakes counts windows discarded and collected again because of
	// foreign load; Pauses and PausedNS the waits for a settled host.
	Retakes         int   `json:"retakes"`
	Pauses          int   `json:"pauses"`
	PausedNS        int64 `json:"paused_ns"`
	BudgetExhausted bool  `json:"budget_exhausted"`
	ElapsedNS       int64 `json:"elapsed_ns"`
	SamplingNS      int64 `json:"sampling_ns"`
	// Until is how a run with a stopping rule ended (schema 1.3).
	Until *UntilOutcome `json:"until,omitempty"`
}

// UntilOutcome says whether a run with a stopping rule settled (a look
// met the rule) or hit its limit (Reason "time": --max-time; "units": the
// most units a run may collect), after how many looks, units and how
// long; ConfidencePct is the level of the final look's intervals.
type UntilOutcome struct {
	Settled       bool    `json:"settled"`
	Reason        string  `json:"reason"`
	Looks         int     `json:"looks"`
	Units         int     `json:"units"`
	ElapsedNS     int64   `json:"elapsed_ns"`
	ConfidencePct float64 `json:"confidence_pct"`
}

// Look is one checkpoint of a run with a stopping rule: after Units kept
// units and ElapsedNS since the run started (Fraction of its time
// budget), the intervals at ConfidencePct and whether they met the rule.
// A look whose share of the error rate was too small to use has
// Spent false and no intervals. Final marks the look at the limit.
type Look struct {
	Header
	RunID         string  `json:"run_id"`
	Index         int     `json:"index"`
	Units         int     `json:"units"`
	ElapsedNS     int64   `json:"elapsed_ns"`
	Fraction      float64 `json:"fraction"`
	ConfidencePct float64 `json:"confidence_pct"`
	Spent         bool    `json:"spent"`
	Final         bool    `json:"final,omitempty"`
	Met           bool    `json:"met"`
	// Intervals holds one entry per comparison (contender 1..k-1), or
	// for a single case the relative interval of its mean.
	Intervals []LookInterval `json:"intervals,omitempty"`
}

// LookInterval is one interval at a look, as percent change (for a
// single case, percent of its mean), with its verdict.
type LookInterval struct {
	Contender    int        `json:"contender"`
	ChangePct    float64    `json:"change_pct"`
	CI           [2]float64 `json:"ci_pct"`
	HalfWidthPct float64    `json:"half_width_pct"`
	Verdict      string     `json:"verdict,omitempty"`
}

// Analysis heads the analysis of one run and records how it was computed.
type Analysis struct {
	Header
	RunID         string  `json:"run_id"`
	Analyzer      string  `json:"analyzer"`
	Seed          uint64  `json:"seed"`
	Resamples     int     `json:"resamples"`
	ConfidencePct float64 `json:"confidence_pct"`
	ThresholdPct  float64 `json:"threshold_pct"`
	BlockRule     string  `json:"block_rule"`
	// IntervalMethod names how every interval was computed.
	IntervalMethod string `json:"interval_method,omitempty"`
	// Estimator names the decision estimate of every comparison; absent
	// under the legacy estimator.
	Estimator string   `json:"estimator,omitempty"`
	Complete  bool     `json:"complete"`
	Warnings  []string `json:"warnings,omitempty"`
	// Baseline is present when this analysis compares the run with an
	// archived baseline run (fb-analyze --baseline): its comparisons then
	// have design "independent", the baseline's cases as references
	// (schema 1.4).
	Baseline *Baseline `json:"baseline,omitempty"`
	// Family says at which level each comparison's interval was computed
	// when several comparisons share the run (schema 1.4).
	Family *Family `json:"family,omitempty"`
}

// Baseline identifies the archived run a current run was compared with and
// the fingerprint fields that differed but were allowed (--allow-mismatch).
// Normalized is true when the comparisons used the reference-workload
// scores, which both runs had.
type Baseline struct {
	RunID      string     `json:"run_id"`
	File       string     `json:"file"`
	Started    string     `json:"started"`
	Source     string     `json:"source,omitempty"`
	Normalized bool       `json:"normalized"`
	Allowed    []Mismatch `json:"allowed,omitempty"`
}

// Mismatch is one fingerprint field whose value differs between two runs,
// named as in fb-stream(5) ("host.cpu_model", "timer", "tag.revision").
type Mismatch struct {
	Field    string `json:"field"`
	Baseline string `json:"baseline"`
	Current  string `json:"current"`
}

// Family is the multiplicity rule: Method "bonferroni" (each of M
// comparisons at 1 - (1 - FamilyConfidencePct/100)/M) or "none" (each at
// the nominal level; the analysis is labelled exploratory). Scope says
// which comparisons form the family: "time" (each contender's time) or
// "all" (time and every axis with a verdict).
type Family struct {
	Method              string  `json:"method"`
	Scope               string  `json:"scope"`
	M                   int     `json:"m"`
	FamilyConfidencePct float64 `json:"family_confidence_pct"`
	PerComparisonPct    float64 `json:"per_comparison_pct"`
	Exploratory         bool    `json:"exploratory,omitempty"`
	// AxisConfidencePct is the level of the axis comparisons outside the
	// family (every axis under scope "time", diagnostic axes under "all"),
	// present when it differs from the family's (schema 1.4).
	AxisConfidencePct float64 `json:"axis_confidence_pct,omitempty"`
}

// Outliers are Tukey-fence counts; no sample is ever removed.
type Outliers struct {
	LowSevere  int `json:"low_severe"`
	LowMild    int `json:"low_mild"`
	HighMild   int `json:"high_mild"`
	HighSevere int `json:"high_severe"`
}

// Total is the number of samples outside the inner fences.
func (o Outliers) Total() int { return o.LowSevere + o.LowMild + o.HighMild + o.HighSevere }

// Summary describes one case's per-operation times (ns/op). Percentiles are
// percentiles of batch means, not of individual operations.
type Summary struct {
	Header
	RunID         string     `json:"run_id"`
	Case          int        `json:"case"`
	Name          string     `json:"name"`
	N             int        `json:"n"`
	Min           float64    `json:"min_ns"`
	Median        float64    `json:"median_ns"`
	Mean          float64    `json:"mean_ns"`
	P95           float64    `json:"p95_ns"`
	P99           float64    `json:"p99_ns"`
	Max           float64    `json:"max_ns"`
	SD            float64    `json:"sd_ns"`
	MAD           float64    `json:"mad_ns"`
	CVPct         float64    `json:"cv_pct"`
	MeanCI        [2]float64 `json:"mean_ci_ns"`
	BlockLen      int        `json:"block_len"`
	Outliers      Outliers   `json:"outliers"`
	Lag1          float64    `json:"lag1"`
	MedianBatchNS float64    `json:"median_batch_ns"`
	// Iterations is the median batch size of the case's samples.
	Iterations int64 `json:"iterations"`
	// SizeRange is the smallest and largest batch size, when they differ
	// (a run whose sizes varied, --size-spread), and SizeSlope how the
	// time per operation depended on the size (schema 1.5).
	SizeRange *[2]int64  `json:"size_range,omitempty"`
	SizeSlope *SizeSlope `json:"size_slope,omitempty"`
	FloorNS   float64    `json:"floor_ns"`
	TimedNS   int64      `json:"timed_ns"`
	// Axes summarizes every requested axis, wall time first.
	Axes      []AxisSummary     `json:"axes,omitempty"`
	Telemetry *TelemetrySummary `json:"telemetry,omitempty"`
	// Normalized is the case's time in units of the run's reference
	// workload, when the run has one (schema 1.4).
	Normalized *Normalized `json:"normalized,omitempty"`
	// Tail is the tail-latency view of the case (schema 1.4).
	Tail *Tail `json:"tail,omitempty"`
	// Throughput is the batch-throughput view, when the case declares its
	// work units (schema 1.4).
	Throughput *Throughput `json:"throughput,omitempty"`
}

// Throughput is a case's work units per second: WorkUnits over its mean
// time per operation, with the interval of that mean turned around
// (higher is better).
type Throughput struct {
	WorkUnits   float64    `json:"work_units"`
	UnitsPerSec float64    `json:"units_per_sec"`
	CI          [2]float64 `json:"ci"`
}

// ThroughputChange is the batch-throughput view of a comparison: the
// contender's throughput relative to the reference's, as a direction-aware
// improvement in percent (positive: more work per second), from the
// decision estimate's speedup and interval times the ratio of the two
// cases' work units, with a verdict against the threshold in the axis
// vocabulary ("contender better", ...).
type ThroughputChange struct {
	ImprovementPct float64    `json:"improvement_pct"`
	CI             [2]float64 `json:"ci_pct"`
	Verdict        string     `json:"verdict"`
}

// Tail is the tail-latency view of one case: percentiles of individual
// operations, which exist only when every sample timed exactly one
// operation, and are trusted only from MinTailObservations of them (with
// 100, about five lie beyond the p95). Otherwise Status is
// TailInsufficient, Reason says why, and no percentile is given: the
// summary's p95/p99 are then percentiles of batch means, not of
// operations.
type Tail struct {
	Status       string  `json:"status"`
	Reason       string  `json:"reason,omitempty"`
	Observations int     `json:"observations"`
	P50          float64 `json:"p50_ns,omitempty"`
	P90          float64 `json:"p90_ns,omitempty"`
	P95          float64 `json:"p95_ns,omitempty"`
	P99          float64 `json:"p99_ns,omitempty"`
}

// Tail view statuses and the evidence minimum.
const (
	TailOK              = "ok"
	TailInsufficient    = "insufficient evidence"
	MinTailObservations = 100
)

// Normalized is a score: mean time per operation divided by the reference
// workload's, with an interval whose relative half-width combines the two
// means' relative half-widths in quadrature.
type Normalized struct {
	ReferenceCase int        `json:"reference_case"`
	Score         float64    `json:"score"`
	CI            [2]float64 `json:"ci"`
}

// AxisSummary describes one axis of one case. Statistics are present only
// when at least one sample has a value (N > 0); Missing counts samples
// without one.
type AxisSummary struct {
	Name    string     `json:"name"`
	Unit    string     `json:"unit"`
	Status  string     `json:"status"`
	Reason  string     `json:"reason,omitempty"`
	N       int        `json:"n"`
	Missing int        `json:"missing"`
	Stats   *AxisStats `json:"stats,omitempty"`
}

// AxisStats are the distribution facts of an axis's values.
type AxisStats struct {
	Min    float64    `json:"min"`
	Median float64    `json:"median"`
	Mean   float64    `json:"mean"`
	P95    float64    `json:"p95"`
	P99    float64    `json:"p99"`
	Max    float64    `json:"max"`
	MeanCI [2]float64 `json:"mean_ci"`
}

// TelemetrySummary condenses a case's telemetry; the series hold at most
// 48 points, each the mean of consecutive samples, in collection order.
type TelemetrySummary struct {
	CPUPctMean   float64   `json:"cpu_pct_mean"`
	CPUPctPeak   float64   `json:"cpu_pct_peak"`
	RSSPeakBytes int64     `json:"rss_peak_bytes"`
	RSSFirst     int64     `json:"rss_first_bytes"`
	RSSLast      int64     `json:"rss_last_bytes"`
	CPUSeries    []float64 `json:"cpu_series"`
	RSSSeries    []float64 `json:"rss_series"`
}

// Comparison is the paired comparison of one contender against the reference.
// Speedups are reference time / contender time: above 1 the contender is faster.
// Relative changes are contender time relative to reference time, in percent.
type Comparison struct {
	Header
	RunID          string     `json:"run_id"`
	Reference      int        `json:"reference"`
	Contender      int        `json:"contender"`
	ReferenceName  string     `json:"reference_name"`
	ContenderName  string     `json:"contender_name"`
	Design         string     `json:"design"`
	Batching       string     `json:"batching"`
	Pairs          int        `json:"pairs"`
	GeoSpeedup     float64    `json:"geo_speedup"`
	MedianSpeedup  float64    `json:"median_speedup"`
	SpeedupCI      [2]float64 `json:"speedup_ci"`
	ChangePct      float64    `json:"change_pct"`
	ChangeCI       [2]float64 `json:"change_ci_pct"`
	MeanDiffNS     float64    `json:"mean_diff_ns"`
	ConfidencePct  float64    `json:"confidence_pct"`
	ThresholdPct   float64    `json:"threshold_pct"`
	Verdict        string     `json:"verdict"`
	OrderEffectPct float64    `json:"order_effect_pct"`
	ReferenceFirst int        `json:"reference_first"`
	ContenderFirst int        `json:"contender_first"`
	Lag1           float64    `json:"lag1"`
	BlockLen       int        `json:"block_len"`
	ContenderWins  int        `json:"contender_wins"`
	ReferenceWins  int        `json:"reference_wins"`
	Ties           int        `json:"ties"`
	Warnings       []string   `json:"warnings,omitempty"`
	// Axes compares every requested axis on the same pairs, wall time first.
	Axes []AxisComparison `json:"axes,omitempty"`
	// Estimator names the decision estimate behind Speedup, SpeedupCI,
	// ChangePct, ChangeCI and Verdict: "robust" (the biweight crossover
	// location of the paired log-ratios) or "mean" (their crossover mean).
	// Absent under the legacy estimator (schema 1.2 and earlier), where the
	// decision estimate is the geometric mean itself.
	Estimator string `json:"estimator,omitempty"`
	// Speedup is the decision estimate as reference time / contender time.
	Speedup float64 `json:"speedup,omitempty"`
	// Geo is the geometric mean (GeoSpeedup) as a change, with its own
	// interval, beside a decision estimate that is not it.
	Geo *GeoMean `json:"geo,omitempty"`
	// Robust describes the decision estimate's fit.
	Robust *RobustFit `json:"robust,omitempty"`
	// Sequential is present when the run sampled until a decision or a
	// width: ConfidencePct is then the final look's level.
	Sequential *Sequential `json:"sequential,omitempty"`
	// Normalized is true when a baseline comparison compared the cases'
	// reference-workload scores instead of their times (schema 1.4).
	Normalized bool `json:"normalized,omitempty"`
	// Throughput is the batch-throughput view, when both cases declare
	// their work units (schema 1.4).
	Throughput *ThroughputChange `json:"throughput,omitempty"`
	// Process is the process-level comparison over whole process blocks,
	// in a run collected with --invocations (schema 1.4).
	Process *ProcessLevel `json:"process,omitempty"`
	// ProcessViews are the process-level comparisons in the other views
	// the run supports: "throughput" when both cases declare work units,
	// "tail" when every sample timed one operation (schema 1.4).
	ProcessViews []ProcessLevel `json:"process_views,omitempty"`
	// Sizes is the batch-size diagnostic: the sizes both sides ran and
	// how the time per operation depends on them (schema 1.5).
	Sizes *Sizes `json:"size,omitempty"`
	// Blocked is present when the pairs came from two or more process
	// blocks (worker rotation, or --invocations): the decision and
	// geometric intervals are then computed over the blocks, the block
	// being the replicate (schema 1.6).
	Blocked *Blocked `json:"blocked,omitempty"`
}

// Blocked says how a comparison's intervals used its process blocks
// (schema 1.6).
type Blocked struct {
	// Blocks is the number of process blocks the pairs came from.
	Blocks int `json:"blocks"`
	// Method is how the interval over blocks is computed.
	Method string `json:"method"`
	// WithinCI is the change interval the pairs give as one series,
	// blocks ignored: narrower when processes of one binary differ, as it
	// covers only the processes this run happened to start.
	WithinCI [2]float64 `json:"within_ci_pct"`
}

// Sizes is a comparison's batch-size diagnostic (schema 1.5). Where an
// operation's cost depends on how many a batch holds (a process started
// per batch, a warming cache, a collector's pace), sides that ran
// different sizes measured different things; sides that ran the same
// size unit by unit pay the same dependence, which the sizes varying
// from unit to unit makes visible.
type Sizes struct {
	// Status is SizesVaried when the sizes changed from unit to unit, so
	// that a dependence could be measured, SizesFixed when each side kept
	// one size for the run.
	Status string `json:"status"`
	// EqualInPairs is true when both sides of every pair (or both cases in
	// every round) ran the same number of operations.
	EqualInPairs bool `json:"equal_in_pairs"`
	// Median is each side's median size, reference first; Range the
	// smallest and largest size of either side; Ratio the median over the
	// pairs of the contender's size over the reference's.
	Median     [2]int64 `json:"median"`
	Range      [2]int64 `json:"range"`
	Ratio      float64  `json:"ratio"`
	*SizeSlope          // the headline: Pooled when the sizes were equal, Contender otherwise
	// Pooled is the dependence of both sides' geometric mean time per
	// operation on their common size (equal sizes only).
	Pooled *SizeSlope `json:"pooled,omitempty"`
	// Reference and Contender are each side's own dependence.
	Reference *SizeSlope `json:"reference,omitempty"`
	Contender *SizeSlope `json:"contender,omitempty"`
	// Change is the dependence of the paired ratio contender/reference on
	// the common size (equal sizes only): how the comparison itself moves
	// with the batch size.
	Change *SizeSlope `json:"change,omitempty"`
	// BiasPct is the part of the change the unequal sizes account for, at
	// the contender's measured dependence, with BiasCI from its interval;
	// absent when the sizes were equal or did not vary.
	BiasPct *float64    `json:"bias_pct,omitempty"`
	BiasCI  *[2]float64 `json:"bias_ci_pct,omitempty"`
}

// Sizes statuses (schema 1.5).
const (
	SizesVaried = "varied"
	SizesFixed  = "fixed"
)

// SizeSlope is how a time per operation depends on the batch size: its
// change per doubling of the size in percent, the interval at the
// analysis's confidence, whether it excludes zero, and the samples it
// comes from (Theil-Sen slope of log time on log2 size; fb-analyze(1)).
type SizeSlope struct {
	PerDoublingPct float64    `json:"per_doubling_pct"`
	CI             [2]float64 `json:"ci_pct"`
	Significant    bool       `json:"significant"`
	Samples        int        `json:"samples"`
}

// ProcessLevel is a comparison's process-level inference (seed 002): each
// complete process block is one experimental unit, its per-run statistic
// the view's statistic of the case's samples in that block, and
// the interval a bias-corrected and accelerated bootstrap over whole
// blocks, paired (both members ran in the block) and stratified by the
// block's orientation. ImprovementPct is direction-aware: 100·(1 − c/b)
// for a time, 100·(c/b − 1) for a throughput, b and c the medians of the
// reference's and the contender's per-block statistics, positive when
// the contender is better. Status is
// ProcessInsufficient, with Reason, when there are fewer complete blocks
// than the evidence minimum (5) or the bootstrap cannot run.
type ProcessLevel struct {
	// View is "latency" (the per-run statistic is the mean time per
	// operation), "throughput" (mean work units per second: higher is
	// better) or "tail" (the p95 of single operations, from at least 100
	// per block and case).
	View           string     `json:"view"`
	Status         string     `json:"status"`
	Reason         string     `json:"reason,omitempty"`
	Statistic      string     `json:"statistic"`
	Design         string     `json:"design"`
	Runs           int        `json:"runs"`
	Strata         int        `json:"strata,omitempty"`
	Method         string     `json:"method,omitempty"`
	Resamples      int        `json:"resamples,omitempty"`
	ConfidencePct  float64    `json:"confidence_pct"`
	ImprovementPct float64    `json:"improvement_pct,omitempty"`
	CI             [2]float64 `json:"ci_pct,omitempty"`
	Verdict        string     `json:"verdict,omitempty"`
}

// Process-level statuses (schema 1.4).
const (
	ProcessOK           = "ok"
	ProcessInsufficient = "insufficient evidence"
)

// Sequential says how a run with a stopping rule ended, for a comparison
// analysed at its final look's level: the rule, whether it settled, why
// it stopped (UntilOutcome.Reason), the looks, and the overall confidence
// the looks share.
type Sequential struct {
	Rule                 string  `json:"rule"`
	Settled              bool    `json:"settled"`
	Reason               string  `json:"reason"`
	Looks                int     `json:"looks"`
	OverallConfidencePct float64 `json:"overall_confidence_pct"`
}

// GeoMean is the geometric mean of the per-pair ratios with its interval.
type GeoMean struct {
	ChangePct float64    `json:"change_pct"`
	ChangeCI  [2]float64 `json:"change_ci_pct"`
	SpeedupCI [2]float64 `json:"speedup_ci"`
}

// RobustFit is what the crossover location found: the pairs it gave no
// weight (by which side was slow), the robust spread of the log-ratios it
// measured them in, the leader effect it took out, whether the order
// groups were separated, and whether it fell back to full weights.
type RobustFit struct {
	Rejected      int     `json:"rejected"`
	ReferenceSlow int     `json:"reference_slow"`
	ContenderSlow int     `json:"contender_slow"`
	ScalePct      float64 `json:"scale_pct"`
	LeaderPct     float64 `json:"leader_pct"`
	Blocked       bool    `json:"blocked"`
	Fallback      bool    `json:"fallback,omitempty"`
}

// AxisComparison is one axis compared on the same pairs as wall time.
// Available is false when either side lacks complete samples; then Result
// is absent and Status and Reason say why.
type AxisComparison struct {
	Name        string      `json:"name"`
	Unit        string      `json:"unit"`
	Direction   string      `json:"direction"`
	Scope       string      `json:"scope"`
	Attribution string      `json:"attribution"`
	Available   bool        `json:"available"`
	Status      string      `json:"status"`
	Reason      string      `json:"reason,omitempty"`
	Result      *AxisResult `json:"result,omitempty"`
}

// AxisResult is an available axis comparison. With method "relative",
// Change and CI are the contender's relative change in percent (from the
// geometric mean of the paired ratios); with "absolute", the mean paired
// difference, contender minus reference, in the axis unit.
type AxisResult struct {
	Method    string     `json:"method"`
	N         int        `json:"n"`
	RefMedian float64    `json:"ref_median"`
	ConMedian float64    `json:"con_median"`
	Change    float64    `json:"change"`
	CI        [2]float64 `json:"ci"`
	BlockLen  int        `json:"block_len"`
	Verdict   string     `json:"verdict"`
	// Rejected counts the pairs the robust estimate gave no weight.
	Rejected int `json:"rejected,omitempty"`
}

// AxisMethodExact is the method of a deterministic axis (custom axes
// declared with comparison "exact", and counters): Change is contender
// minus reference of the (constant) values, CI is [Change, Change], and
// the verdict is "no change", "increased" or "decreased", or "not
// deterministic" when a side's values differ (schema 1.4).
const AxisMethodExact = "exact"

// Verdicts of an exact axis comparison. fb-check reads them: any
// increase of a deterministic count fails, and a count that varies within
// a side cannot be judged.
const (
	VerdictExactSame      = "no change"
	VerdictExactIncreased = "increased"
	VerdictExactDecreased = "decreased"
	VerdictExactVaries    = "not deterministic"
)

// Counter is a deterministic count of one case measured outside the timed
// schedule (schema 1.4): Axis names it ("instructions_sim"), Value is
// per operation when Status is "collected", absent otherwise with Reason.
// Source says how it was measured ("valgrind --tool=cachegrind
// --cache-sim=no", its version), Runs how many untimed executions it took.
// Values holds every count taken, in order, when the case was counted
// more than once (Value is their median): the analysis calls the counter
// not deterministic when they differ (schema 1.4).
type Counter struct {
	Header
	RunID  string    `json:"run_id"`
	Case   int       `json:"case"`
	Name   string    `json:"name"`
	Axis   string    `json:"axis"`
	Unit   string    `json:"unit"`
	Status string    `json:"status"`
	Reason string    `json:"reason,omitempty"`
	Value  *float64  `json:"value,omitempty"`
	Source string    `json:"source,omitempty"`
	Runs   int       `json:"runs,omitempty"`
	Values []float64 `json:"values,omitempty"`
}

// Suite is the geometric-mean speedup across benchmarks (schema 1.4):
// each member is one comparison (a run's contender against its
// reference); the interval resamples each member's pairs on its own.
type Suite struct {
	Header
	Members       []SuiteMember `json:"members"`
	GeoSpeedup    float64       `json:"geo_speedup"`
	SpeedupCI     [2]float64    `json:"speedup_ci"`
	ChangePct     float64       `json:"change_pct"`
	ChangeCI      [2]float64    `json:"change_ci_pct"`
	ConfidencePct float64       `json:"confidence_pct"`
	ThresholdPct  float64       `json:"threshold_pct"`
	Verdict       string        `json:"verdict"`
	// Method says how the interval was computed; Warnings name the
	// comparisons left out of the suite and why (schema 1.4).
	Method   string   `json:"method,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// AA is the false-alarm summary of a series of A/A runs (schema 1.5),
// written by fb-analyze after the runs: one command measured against
// itself Runs times, each run analysed alone, so every verdict naming a
// faster side is false and every interval that excludes zero does so by
// chance or by a bias of the method.
type AA struct {
	Header
	Series  string   `json:"series"`
	Command string   `json:"command"`
	Mode    string   `json:"mode"`
	Planned int      `json:"planned"`
	Runs    int      `json:"runs"`
	RunIDs  []string `json:"run_ids"`
	// Verdicts counts the runs by verdict; False is the runs whose verdict
	// named a faster side, with FalseRateCI the exact (Clopper-Pearson)
	// interval of the false-alarm rate at ConfidencePct.
	Verdicts    map[string]int `json:"verdicts"`
	False       int            `json:"false"`
	FalseRateCI [2]float64     `json:"false_rate_ci"`
	// ExcludeZero is the runs whose interval of the change excludes 0.
	ExcludeZero     int     `json:"exclude_zero"`
	MedianChangePct float64 `json:"median_change_pct"`
	MaxAbsChangePct float64 `json:"max_abs_change_pct"`
	MedianWidthPct  float64 `json:"median_width_pct"`
	ConfidencePct   float64 `json:"confidence_pct"`
	ThresholdPct    float64 `json:"threshold_pct"`
	// SizeMedianPct is the median over the runs of the size diagnostic's
	// headline (per doubling of the batch), SizeSignificant the runs where
	// it was significant, UnequalSizes the runs whose sides ran different
	// sizes.
	SizeMedianPct   *float64 `json:"size_median_pct,omitempty"`
	SizeSignificant int      `json:"size_significant"`
	UnequalSizes    int      `json:"unequal_sizes"`
}

// SuiteMember is one benchmark of a suite.
type SuiteMember struct {
	RunID     string  `json:"run_id"`
	Contender int     `json:"contender"`
	Name      string  `json:"name"`
	Speedup   float64 `json:"speedup"`
	Pairs     int     `json:"pairs"`
	// Design is the member's comparison design: "paired", "rounds",
	// "sequential" or "independent" (each side resampled on its own).
	Design string `json:"design,omitempty"`
}

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
	Design    string  `json:"design"`
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

// Verdicts of a timing comparison.
const (
	VerdictContenderFaster = "contender faster"
	VerdictReferenceFaster = "reference faster"
	VerdictEquivalent      = "practically equivalent"
	VerdictInconclusive    = "inconclusive"
)

// Designs of a run's collection schedule.
const (
	DesignSingle     = "single"
	DesignPaired     = "paired"
	DesignRounds     = "rounds"
	DesignSequential = "sequential"
	// DesignIndependent labels a comparison of two separately collected
	// runs (a baseline comparison): no pairs exist across them (schema 1.4).
	DesignIndependent = "independent"
)

// End reasons.
const (
	EndCompleted   = "completed"
	EndBudget      = "budget"
	EndInterrupted = "interrupted"
	EndFailed      = "failed"
)

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

// Window is one interference-watch window: whole units collected together,
// the foreign CPU load seen over them and what was done about it.
type Window struct {
	Header
	Index int `json:"index"`
	// FirstUnit and Units give the units the window covered.
	FirstUnit int   `json:"first_unit"`
	Units     int   `json:"units"`
	Samples   int   `json:"samples"`
	WallNS    int64 `json:"wall_ns"`
	// Judged is false for a window shorter than a scheduler tick or the
	// watch window: it is recorded but never triggers a response.
	Judged bool `json:"judged"`
	// Attribution is "host_wide" or "core_scoped".
	Attribution string  `json:"attribution"`
	WatchedCPUs []int   `json:"watched_cpus,omitempty"`
	ForeignPct  float64 `json:"foreign_pct"`
	HostBusyPct float64 `json:"host_busy_pct"`
	OwnPct      float64 `json:"own_pct"`
	// AllowancePct is one counter tick per CPU as a share of the window;
	// the window is contaminated when ForeignPct - AllowancePct exceeds
	// the limit.
	AllowancePct float64 `json:"allowance_pct"`
	// Verdict is "clean", "contaminated" or "unjudged".
	Verdict string `json:"verdict"`
	// Action is "kept", "retaken" or "paused" (discarded, then collected
	// again after a pause); Exhausted marks a contaminated window kept
	// because a budget ran out.
	Action    string `json:"action"`
	Exhausted bool   `json:"exhausted,omitempty"`
	PauseNS   int64  `json:"pause_ns,omitempty"`
	// Diluted marks the window at which core-scoped attribution was
	// abandoned for host-wide.
	Diluted bool `json:"diluted,omitempty"`
	// Conditions is what the operating-condition detectors saw at the
	// window's end, when they are enabled. ConditionsExpired marks a
	// conditions pause whose budget ran out, and Fallback what it fell back
	// to ("observe" or "fail").
	Conditions        *Conditions `json:"conditions,omitempty"`
	ConditionsExpired bool        `json:"conditions_expired,omitempty"`
	Fallback          string      `json:"fallback,omitempty"`
}

// Window verdicts and actions.
const (
	WindowClean        = "clean"
	WindowContaminated = "contaminated"
	WindowUnjudged     = "unjudged"
	ActionKept         = "kept"
	ActionRetaken      = "retaken"
	ActionPaused       = "paused"
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
