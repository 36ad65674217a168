// The records of a measurement, as fb-pair and fb-sample write them: the run
// record and its configuration, calibrations, samples, process blocks,
// looks of a stopping rule, counters, interference-watch windows and the
// end record.

package ndjson

// Run opens a measurement: who measured what, how, on which host and clock.
// Records up to the next run record belong to it.
type Run struct {
	Header
	RunID       string `json:"run_id"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"tool_version"`
	Started     string `json:"started"`
	// Mode is how an operation is executed: "exec" (a command per logical operation).
	Mode Mode `json:"mode"`
	// Design is the collection schedule: "single", "paired", "rounds" or "sequential".
	Design Design `json:"design"`
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

// Batching policies (Run.Batching).
const (
	BatchingShared    = "shared-iterations"
	BatchingEqualTime = "equal-time"
)

// Timer is the primary timer of a run. Kind "wall" is the harness's clock
// around each batch; "self" is the elapsed time the batch process or
// worker reports for its own iterations (Axis names it: "elapsed_ns" or a
// primary custom axis), with its source and resolution; "cpu" is the user
// plus system CPU time of each batch (--timer cpu: the runs' wait4 rusage,
// or the worker's CPU-time clock), with wall time kept as the axis "wall".
// Note says what the timer includes, e.g. process start-up for a
// wall-timed batch.
type Timer struct {
	Kind         TimerKind `json:"kind"`
	Axis         string    `json:"axis,omitempty"`
	Source       string    `json:"source,omitempty"`
	ResolutionNS float64   `json:"resolution_ns,omitempty"`
	Note         string    `json:"note,omitempty"`
}

// Mode is how a run executes one operation (man fb-pair(1)).
type Mode string

// Modes.
const (
	ModeExec   Mode = "exec"   // a child process per operation
	ModeBatch  Mode = "batch"  // one process per batch performs its N operations itself
	ModeWorker Mode = "worker" // a long-lived worker serves a request per batch (man fb-worker(7))
	ModeGotest Mode = "gotest" // a compiled Go test benchmark runs once per batch (man fb-gotest(7))
)

// TimerKind names what a run's primary timer reads.
type TimerKind string

// Timer kinds.
const (
	TimerWall TimerKind = "wall" // the harness's clock around each batch
	TimerSelf TimerKind = "self" // the batch's or worker's own report of its elapsed time
	TimerCPU  TimerKind = "cpu"  // user plus system CPU time of the batch
)

// KindOf is the kind of a run's timer; a run that records none is timed
// by wall time.
func (t *Timer) KindOf() TimerKind {
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
	if r.Mode == ModeExec && r.Timer.KindOf() == TimerCPU {
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
	// Method is how the axis was measured where there is more than one
	// way, such as rss_peak's "launcher", "clear_refs" or "inherited"
	// (man fb-pair(1)), and MethodNote why each better way was not used
	// (schema 1.7).
	Method     string `json:"method,omitempty"`
	MethodNote string `json:"method_note,omitempty"`
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
	// Timeout is the time limit of one run of a command: "auto: ..." (the
	// rule), "none", or a duration such as "30s"; absent in worker mode and
	// before it existed (optional, schema 1.6).
	Timeout string `json:"timeout,omitempty"`
	// Duet is present when the two sides of every pair ran at the same
	// time, each on its own CPU (fb-pair --duet, schema 1.7).
	Duet *Duet `json:"duet,omitempty"`
	// PageCache says how the run treated its programs' files in the page
	// cache (schema 1.7, optional; absent from earlier streams, whose
	// files were left as found).
	PageCache *PageCache `json:"page_cache,omitempty"`
}

// PageCache says how a run treated its programs' files in the kernel's
// page cache (schema 1.7, optional). A file stays cached the way it got
// there: one written by a linker or cp in the writer's pages or large
// folios, one read back by exec in the reader's, each wherever the
// allocator found room, and two byte-identical programs can run
// differently for as long as both stay so. Dropping the files makes every
// side read its code back the same way.
type PageCache struct {
	// Policy is "drop" (every program's file written back and dropped
	// before warm-up and whenever a process block starts) or "keep" (left
	// as found).
	Policy string `json:"policy"`
	// Files are the distinct program files of the cases, as dropped.
	Files []string `json:"files,omitempty"`
	// Unknown names the cases whose program file is not known (a command
	// run through the shell, or not found), whose files stayed as found.
	Unknown []string `json:"unknown,omitempty"`
	// First is what the drop before warm-up came to; a block record
	// carries each later one.
	First *Dropped `json:"first,omitempty"`
}

// Page-cache policies (PageCache.Policy).
const (
	PageCacheDrop = "drop"
	PageCacheKeep = "keep"
)

// Dropped is what dropping the programs' files from the page cache came
// to: the pages they span, how many of them the cache held before, how
// many it still held after (a page a running process maps stays), and the
// files that could not be dropped, or not wholly, each with why.
type Dropped struct {
	Pages    int      `json:"pages"`
	Resident int      `json:"resident"`
	Left     int      `json:"left"`
	Failed   []string `json:"failed,omitempty"`
	// Ballast (1.7, optional: block records of a rotation) is the pages of
	// anonymous memory held from the drop until the block's untimed
	// batches had read the files back, so that they land in other pages
	// than the ones they left; drawn from the seed and the block.
	Ballast int `json:"ballast,omitempty"`
}

// Duet says how a duet run placed its two sides (schema 1.7). Each pair
// started both sides together, the leader a moment first; the leader is
// the pair's first position (pos 0), balanced like any pair's order, and
// the sides swap CPUs every pair.
type Duet struct {
	// CPUs are the two logical CPUs the sides ran on.
	CPUs [2]int `json:"cpus"`
	// SMTSiblings is true when the two CPUs are hardware threads of one
	// core, sharing its execution units as well as its caches.
	SMTSiblings bool `json:"smt_siblings"`
	// Swap names the CPU rotation: "every pair".
	Swap string `json:"swap"`
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

// Estimators a decision judges (Until.Estimator, Comparison.Estimator;
// pkg/stats.Estimator's names).
const (
	EstimatorRobust = "robust"
	EstimatorMean   = "mean"
)

// Stopping rules (Until.Rule).
const (
	UntilDecision = "decision"
	UntilWidth    = "width"
)

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

// Watch responses (WatchConfig.Response): what a run does about a window
// that foreign load contaminated.
const (
	WatchObserve = "observe"
	WatchRetake  = "retake"
	WatchPause   = "pause"
)

// Placement is where the benchmarked commands were pinned. Outcome is
// "strict" (bound to CPU) or "rejected" (the request failed, Reason says
// why; the run continued unplaced).
type Placement struct {
	CPU         int    `json:"cpu"`
	Outcome     string `json:"outcome"`
	WatchedCPUs []int  `json:"watched_cpus,omitempty"`
	Reason      string `json:"reason,omitempty"`
}

// Placement outcomes.
const (
	PlacementStrict   = "strict"
	PlacementRejected = "rejected"
)

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
	// Program is the file the case's command starts (its first word
	// found as the command's PATH finds it), recorded by fb-pair and
	// fb-sample; absent for a command run through a shell, one not found,
	// and in streams written before it (schema 1.7).
	Program *Program `json:"program,omitempty"`
}

// Program names the file a case starts: Path as the command names it
// (made absolute), and Link, the file it resolves to, when Path itself is
// a symbolic link. A program can run differently by the name it is
// started with (an interpreter resolves its own link at start-up and
// derives its paths from the target), so fb-analyze warns when one case
// starts its program through a link and the other by its own name.
type Program struct {
	Path string `json:"path"`
	Link string `json:"link,omitempty"`
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
	// CPU is the logical CPU the sample's batch ran on, in a duet run
	// (schema 1.7).
	CPU *int `json:"cpu,omitempty"`
	// Overlap is the share of the batch's wall time during which the
	// other side of its duet pair was running too, 0 to 1 (schema 1.7).
	Overlap *float64 `json:"overlap,omitempty"`
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
	// Dropped is what dropping the programs' files from the page cache
	// came to when the block started (schema 1.7, optional: a run with
	// page_cache policy drop).
	Dropped *Dropped `json:"dropped,omitempty"`
}

// Block orientations (Block.Orientation).
const (
	OrientAB      = "AB"
	OrientBA      = "BA"
	OrientForward = "forward"
	OrientReverse = "reverse"
)

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
	// Escaped counts, per case, the runs (processes started for its
	// batches, warm-up included) that exited leaving processes of their
	// process group alive, which were killed; nil when none did
	// (optional, schema 1.6).
	Escaped []int64 `json:"escaped,omitempty"`
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

// Why a run with a stopping rule stopped (UntilOutcome.Reason, and
// Sequential.Reason, which is UntilCut when the stream ended first).
const (
	UntilSettled = "settled"
	UntilTime    = "time"
	UntilUnits   = "units"
	UntilCut     = "cut"
)

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
	Verdict      Verdict    `json:"verdict,omitempty"`
}

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

// Design names a run's collection schedule, or how a comparison's two
// sides were collected.
type Design string

// Designs of a run's collection schedule.
const (
	DesignSingle     Design = "single"
	DesignPaired     Design = "paired"
	DesignRounds     Design = "rounds"
	DesignSequential Design = "sequential"
	// DesignIndependent labels a comparison of two separately collected
	// runs (a baseline comparison): no pairs exist across them (schema 1.4).
	DesignIndependent Design = "independent"
)

// End reasons.
const (
	EndCompleted   = "completed"
	EndBudget      = "budget"
	EndInterrupted = "interrupted"
	EndFailed      = "failed"
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
	// Pressure is the host's pressure stall information over the window,
	// where the kernel keeps it; PressureUnavailable says why it is
	// absent otherwise (schema 1.7). Both are absent without a watch.
	Pressure            *Pressure `json:"pressure,omitempty"`
	PressureUnavailable string    `json:"pressure_unavailable,omitempty"`
}

// Pressure is the share of a window's wall time, in percent, during which
// some task of the host (Some) or every non-idle one (Full) was stalled
// waiting for the CPU, memory or I/O: the kernel's pressure stall
// information (/proc/pressure), host-wide (schema 1.7).
type Pressure struct {
	CPUSomePct    float64 `json:"cpu_some_pct"`
	CPUFullPct    float64 `json:"cpu_full_pct"`
	MemorySomePct float64 `json:"memory_some_pct"`
	MemoryFullPct float64 `json:"memory_full_pct"`
	IOSomePct     float64 `json:"io_some_pct"`
	IOFullPct     float64 `json:"io_full_pct"`
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
