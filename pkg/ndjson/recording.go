package ndjson

// Records of a recording (schema 1.4): spans of work the application
// drives (request handlers, queue consumers, frames), timed one by one
// by the recorder package or reported to fb-record over the span
// protocol, rather than batches the harness calls. A recording record
// opens it, span records follow, a recording_end record closes it; the
// recorded percentiles describe individual spans
// (SampleSemantics = "individual_span").
const (
	TypeRecording    = "recording"
	TypeSpan         = "span"
	TypeRecordingEnd = "recording_end"
	// TypeProcess is the observed program's and the recorder's own CPU
	// and resident memory at one moment of a recording.
	TypeProcess = "process"
	// TypeSpanSummary and TypeSpanComparison are fb-analyze's analysis
	// of recordings.
	TypeSpanSummary    = "span_summary"
	TypeSpanComparison = "span_comparison"
)

func (*Recording) Kind() string      { return TypeRecording }
func (*Span) Kind() string           { return TypeSpan }
func (*RecordingEnd) Kind() string   { return TypeRecordingEnd }
func (*ProcessUsage) Kind() string   { return TypeProcess }
func (*SpanSummary) Kind() string    { return TypeSpanSummary }
func (*SpanComparison) Kind() string { return TypeSpanComparison }

// SampleSemanticsIndividualSpan marks statistics of individual spans.
const SampleSemanticsIndividualSpan = "individual_span"

// Span outcomes.
const (
	OutcomeSuccess   = "success"
	OutcomeFailure   = "failure"
	OutcomeTimeout   = "timeout"
	OutcomeCancelled = "cancelled"
)

// Retention policies of a recording.
const (
	RetainReservoir = "reservoir"
	RetainFirst     = "first"
	RetainLatest    = "latest"
)

// Recording opens a recording: who recorded, the named benchmarks (span
// kinds) in registration order, how many spans each keeps and how they
// are chosen, and every requested axis with its provenance.
type Recording struct {
	Header
	RunID       string `json:"run_id"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"tool_version"`
	Started     string `json:"started"`
	// Source is "recorder" (the Go package in the program) or
	// "protocol" (spans reported to fb-record over the span protocol).
	Source          string               `json:"source"`
	SampleSemantics string               `json:"sample_semantics"`
	Benchmarks      []RecordingBenchmark `json:"benchmarks"`
	Retention       Retention            `json:"retention"`
	// Axes lists every requested axis, wall time first, with status,
	// scope and attribution as in a run record.
	Axes  []AxisInfo `json:"axes"`
	Host  Host       `json:"host"`
	Clock Clock      `json:"clock"`
	// Program is the observed program when fb-record started it.
	Program *RecordedProgram  `json:"program,omitempty"`
	Tags    map[string]string `json:"tags,omitempty"`
}

// RecordingBenchmark is one named kind of span.
type RecordingBenchmark struct {
	Index int    `json:"index"`
	Name  string `json:"name"`
}

// Retention is the bounded store chosen before the recording started:
// Policy RetainReservoir (uniform over all observations, seeded),
// RetainFirst or RetainLatest, keeping at most Capacity spans per
// benchmark.
type Retention struct {
	Policy   string `json:"policy"`
	Capacity int    `json:"capacity"`
	Seed     uint64 `json:"seed,omitempty"`
}

// RecordedProgram is a program fb-record started and observed.
type RecordedProgram struct {
	Argv []string `json:"argv"`
	PID  int      `json:"pid"`
}

// Span is one retained span. Obs numbers the benchmark's observations
// from 1 in the order they finished (a retained span keeps its number
// whatever the policy dropped around it); StartNS is when it began,
// since the recording started. WallNS is absent only when the wall
// axis is not collected for it; every other axis carries a value or a
// status, as in a sample.
type Span struct {
	Header
	RunID     string               `json:"run_id"`
	Benchmark int                  `json:"b"`
	Obs       int64                `json:"obs"`
	Outcome   string               `json:"outcome"`
	StartNS   int64                `json:"start_ns"`
	WallNS    *int64               `json:"wall_ns,omitempty"`
	Axes      map[string]AxisValue `json:"axes,omitempty"`
}

// RecordingEnd closes a recording: why it ended, and per benchmark how
// many spans were observed, retained, omitted by the retention policy
// and never finished, and the outcome counts of all observed spans.
type RecordingEnd struct {
	Header
	RunID      string           `json:"run_id"`
	Reason     string           `json:"reason"`
	ElapsedNS  int64            `json:"elapsed_ns"`
	Benchmarks []BenchmarkTally `json:"benchmarks"`
	// ProtocolErrors counts the connections fb-record closed for a line
	// out of the span protocol (fb-span(7)), or the lines it skipped on a
	// FIFO; the spans they delivered before it are in the tallies.
	ProtocolErrors int64 `json:"protocol_errors,omitempty"`
	// RefusedConnections counts the connections fb-record refused
	// because its limit of connections open at once was reached;
	// ShedConnections those it stopped recording because the unfinished
	// lines of all connections together reached its memory budget (schema
	// 1.6). Their spans are in no tally.
	RefusedConnections int64 `json:"refused_connections,omitempty"`
	ShedConnections    int64 `json:"shed_connections,omitempty"`
	// DiscardedSpans counts the spans that arrived on a connection after
	// its fault (a line out of protocol, a line over the limit, shed),
	// read and not recorded; DroppedAxes the axis values of spans that
	// their recorder stream's recording record did not declare, dropped
	// from the spans kept (schema 1.6).
	DiscardedSpans int64 `json:"discarded_spans,omitempty"`
	DroppedAxes    int64 `json:"dropped_axes,omitempty"`
}

// BenchmarkTally counts one benchmark's spans over the whole recording.
type BenchmarkTally struct {
	Index      int              `json:"index"`
	Observed   int64            `json:"observed"`
	Retained   int64            `json:"retained"`
	Omitted    int64            `json:"omitted"`
	Unfinished int64            `json:"unfinished"`
	Outcomes   map[string]int64 `json:"outcomes"`
}

// ProcessUsage is the CPU and resident memory, at one moment of a
// recording, of the observed program (when fb-record started it or was
// given its pid) and of the recording tool itself. CPU is the share of
// one core since the previous record, in percent.
type ProcessUsage struct {
	Header
	RunID       string  `json:"run_id"`
	AtNS        int64   `json:"at_ns"`
	ProgramCPU  float64 `json:"program_cpu_pct,omitempty"`
	ProgramRSS  int64   `json:"program_rss_bytes,omitempty"`
	RecorderCPU float64 `json:"recorder_cpu_pct"`
	RecorderRSS int64   `json:"recorder_rss_bytes"`
}

// SpanSummary is fb-analyze's summary of one benchmark of a recording:
// percentiles of individual spans with bootstrap intervals, outcome
// counts, and per-axis summaries. Outcome names the spans summarized
// ("all" or one outcome, fb-analyze --outcome).
type SpanSummary struct {
	Header
	RunID           string `json:"run_id"`
	Benchmark       int    `json:"b"`
	Name            string `json:"name"`
	SampleSemantics string `json:"sample_semantics"`
	Outcome         string `json:"outcome"`
	N               int    `json:"n"`
	// Outcomes counts the outcomes of all observed spans of the
	// benchmark, from the recording_end record's tally; null for a
	// recording cut short.
	Outcomes map[string]int64 `json:"outcomes"`
	// RetainedOutcomes counts the outcomes of the retained spans (the
	// span records), before the Outcome filter (schema 1.4).
	RetainedOutcomes map[string]int64 `json:"retained_outcomes"`
	// Tally is the recording_end record's tally of the benchmark:
	// observed, retained, omitted and unfinished spans; absent for a
	// recording cut short (schema 1.4).
	Tally *BenchmarkTally `json:"tally,omitempty"`
	// ConfidencePct is the level of the percentile intervals (schema
	// 1.4).
	ConfidencePct float64 `json:"confidence_pct"`
	// Wall is absent when no summarized span has a wall time.
	Wall       *SpanStats    `json:"wall,omitempty"`
	WallStatus string        `json:"wall_status"`
	Axes       []AxisSummary `json:"axes,omitempty"`
	Warnings   []string      `json:"warnings,omitempty"`
}

// SpanStats are the percentiles of individual spans' wall time with
// their bootstrap intervals.
type SpanStats struct {
	Mean        float64          `json:"mean_ns"`
	Percentiles []SpanPercentile `json:"percentiles"`
}

// SpanPercentile is one percentile (P: 50, 90, 95, 99, 99.9) with its
// interval; Status is "insufficient evidence" when there are too few
// spans beyond it to estimate it, and then Value and CI are absent.
type SpanPercentile struct {
	P      float64 `json:"p"`
	Status string  `json:"status"`
	Value  float64 `json:"ns,omitempty"`
	// CI is a pointer so that it is absent, not [0,0], without a value.
	CI *[2]float64 `json:"ci_ns,omitempty"`
}

// Statuses of a span percentile.
const (
	SpanOK           = "ok"
	SpanInsufficient = "insufficient evidence"
)

// SpanComparison compares one benchmark, by name, between two
// recordings: separately observed distributions, resampled
// independently (ComparisonDesign "independent", never paired). Changes
// are the contender's relative to the reference, in percent, per
// percentile; WallAvailable is false when either side's wall time is
// incomplete, and then no change is given.
type SpanComparison struct {
	Header
	ReferenceRun     string             `json:"reference_run"`
	ContenderRun     string             `json:"contender_run"`
	Name             string             `json:"name"`
	ComparisonDesign Design             `json:"comparison_design"`
	Outcome          string             `json:"outcome"`
	WallAvailable    bool               `json:"wall_available"`
	Changes          []PercentileChange `json:"changes,omitempty"`
	ConfidencePct    float64            `json:"confidence_pct"`
	ThresholdPct     float64            `json:"threshold_pct"`
	Warnings         []string           `json:"warnings,omitempty"`
}

// PercentileChange is the change of one percentile with its interval and
// verdict.
type PercentileChange struct {
	P         float64  `json:"p"`
	ChangePct *float64 `json:"change_pct"`
	// CI is null exactly when ChangePct is.
	CI      *[2]float64 `json:"ci_pct"`
	Verdict Verdict     `json:"verdict"`
}

// Verdicts of a compared percentile without a change.
const (
	VerdictUnavailable  Verdict = Unavailable
	VerdictInsufficient Verdict = SpanInsufficient
)
