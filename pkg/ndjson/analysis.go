// The records fb-analyze adds to a run: the analysis record, one summary
// per case, one comparison per contender (with its axes, sizes, process
// blocks and stopping rule), suites and A/A series.

package ndjson

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

// Family scopes and multiplicity methods (Family.Scope, Family.Method).
const (
	FamilyTime             = "time"
	FamilyAll              = "all"
	MultiplicityBonferroni = "bonferroni"
	MultiplicityNone       = "none"
)

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
	Design         Design     `json:"design"`
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
	Verdict        Verdict    `json:"verdict"`
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
	// Interval says how the decision interval was computed and whether
	// it is a valid one (schema 1.7); absent under the legacy estimator.
	Interval *IntervalChoice `json:"interval,omitempty"`
	// Duet is present when the two sides of every pair ran at the same
	// time, each on its own CPU (schema 1.7).
	Duet *DuetPairs `json:"duet,omitempty"`
}

// DuetPairs describes the pairs of a duet run (schema 1.7).
type DuetPairs struct {
	CPUs        [2]int `json:"cpus"`
	SMTSiblings bool   `json:"smt_siblings"`
	// OverlapMedian is the median over the pairs of the smaller of the
	// two sides' overlaps: the share of a batch's wall time during which
	// the other side ran too. Below 1, the longer side finished alone.
	OverlapMedian float64 `json:"overlap_median"`
}

// IntervalChoice is the method behind a comparison's decision interval
// and its status (schema 1.7). Where the pairs cannot support a valid
// interval at the comparison's level, Status is IntervalInsufficient,
// Reason says why, the verdict is "inconclusive", and the interval
// fields hold what the method computed, which is not an interval at that
// level and is not to be reported as one.
type IntervalChoice struct {
	// Method is IntervalLagZero, IntervalBlocks or IntervalClustered.
	Method string `json:"method"`
	// EffectivePairs is how many independent pairs the series is worth,
	// n(1-ρ)/(1+ρ) with ρ its bias-corrected lag-one autocorrelation.
	EffectivePairs float64 `json:"effective_pairs"`
	Status         string  `json:"status"`
	Reason         string  `json:"reason,omitempty"`
	// Short is the short-series rule's account, for a series of 20 to 49
	// pairs (schema 1.7; absent in streams analysed before it).
	Short *ShortSeries `json:"short_series,omitempty"`
}

// ShortSeries is how a series of 20 to 49 pairs answered for the serial
// dependence it cannot rule out: its decision interval is at least
// Student's t at its scale with EffectivePairsBound - 1 degrees of
// freedom, the independent pairs it holds if its lag-one coefficient is
// Lag1Bound (the bias-corrected estimate plus two standard errors).
// Widening is the interval's width over the bootstrap's: 1 where that was
// already as wide (fb-analyze(1), SMALL SAMPLES).
type ShortSeries struct {
	Lag1Bound           float64 `json:"lag1_bound"`
	EffectivePairsBound float64 `json:"effective_pairs_bound"`
	Widening            float64 `json:"widening"`
}

// Decision interval methods and statuses (schema 1.7).
const (
	// IntervalLagZero: the pairs showed no serial dependence; single
	// values resampled, the ordinary standard error.
	IntervalLagZero = "lag zero"
	// IntervalBlocks: circular blocks of the block rule, the prewhitened
	// standard error.
	IntervalBlocks = "blocks"
	// IntervalClustered: over process blocks (Blocked).
	IntervalClustered = "process blocks"

	IntervalOK           = "ok"
	IntervalInsufficient = "insufficient evidence"
)

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

// ProcessLevel is a comparison's process-level inference: each
// complete process block is one experimental unit, its per-run statistic
// the view's statistic of the case's samples in that block, and
// the interval a bias-corrected and accelerated bootstrap over whole
// blocks, paired (both members ran in the block) and stratified by the
// block's orientation; below 80 blocks (schema 1.7) the t interval of
// the blocks' crossover mean log-ratio, method "t", whose estimate is
// that mean as an improvement. ImprovementPct is direction-aware: 100·(1 − c/b)
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
	Design         Design     `json:"design"`
	Runs           int        `json:"runs"`
	Strata         int        `json:"strata,omitempty"`
	Method         string     `json:"method,omitempty"`
	Resamples      int        `json:"resamples,omitempty"`
	ConfidencePct  float64    `json:"confidence_pct"`
	ImprovementPct float64    `json:"improvement_pct,omitempty"`
	CI             [2]float64 `json:"ci_pct,omitempty"`
	Verdict        Verdict    `json:"verdict,omitempty"`
	// MCError is the Monte-Carlo standard error of each end of a
	// bootstrap interval (method "bca" or "percentile"), in percentage
	// points: large where the bootstrap distribution is lumpy and an end
	// sits beside a gap (schema 1.7).
	MCError *[2]float64 `json:"mc_error_pct,omitempty"`
}

// Process-level views (ProcessLevel.View) and interval methods
// (ProcessLevel.Method; pkg/stats' RunMethod names).
const (
	ProcessLatency    = "latency"
	ProcessThroughput = "throughput"
	ProcessTail       = "tail"
	ProcessBCa        = "bca"
	ProcessT          = "t"
	ProcessPercentile = "percentile"
)

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

// AxisResult is an available axis comparison. With method "relative
// ratio", Change and CI are the contender's relative change in percent
// (from the geometric mean of the paired ratios); with "absolute
// difference", the mean paired
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

// Methods of a compared axis that is not exact: the relative change from
// the paired ratios (in percent), or the paired difference in the axis
// unit (pkg/stats.Method's names).
const (
	AxisMethodRelative = "relative ratio"
	AxisMethodAbsolute = "absolute difference"
)

// Verdicts of an exact axis comparison. fb-check reads them: any
// increase of a deterministic count fails, and a count that varies within
// a side cannot be judged.
const (
	VerdictExactSame      = "no change"
	VerdictExactIncreased = "increased"
	VerdictExactDecreased = "decreased"
	VerdictExactVaries    = "not deterministic"
)

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
	Verdict       Verdict       `json:"verdict"`
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
	Mode    Mode     `json:"mode"`
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
	// Spread (1.7, optional) is the root mean square over the runs of each
	// change divided by its interval's standard error (the width over
	// twice the normal quantile of ConfidencePct): about 1 when the
	// intervals are as wide as the runs' scatter says they should be,
	// above 1 when they are too narrow. SpreadCI is its interval at
	// ConfidencePct (chi-square with one degree of freedom per run).
	// Absent with fewer than two runs of positive width.
	Spread   *float64    `json:"spread,omitempty"`
	SpreadCI *[2]float64 `json:"spread_ci,omitempty"`
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
	Design Design `json:"design,omitempty"`
}

// Verdict is the verdict of a timing comparison against its practical
// threshold (an axis has verdicts of its own, AxisResult.Verdict).
type Verdict string

// Verdicts of a timing comparison.
const (
	VerdictContenderFaster Verdict = "contender faster"
	VerdictReferenceFaster Verdict = "reference faster"
	VerdictEquivalent      Verdict = "practically equivalent"
	VerdictInconclusive    Verdict = "inconclusive"
)
