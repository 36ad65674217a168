// The records of fb-history: a case's series over the runs a results
// store holds.

package ndjson

// Series is one case's level over time on one machine class, from
// fb-history show (schema 1.7): Series is its kind ("levels"), Points in
// the order the runs started.
// Metric names the summary field each point's Value is (median_ns,
// mean_ns, min_ns, or score: the normalized score, comparable across
// classes, when Class is empty). Total counts the points the store held
// before --last kept the newest.
type Series struct {
	Header
	Series string `json:"series"`
	Case   string `json:"case"`
	// Reference is the reference case of a chain's comparisons.
	Reference string            `json:"reference,omitempty"`
	Metric    string            `json:"metric"`
	Class     string            `json:"class"`
	Where     map[string]string `json:"where,omitempty"`
	Total     int               `json:"total"`
	Points    []SeriesPoint     `json:"points"`
	// Changes are the level shifts found in Points, oldest first; absent
	// when none was found or none was looked for (Detection says which).
	Changes []SeriesChange `json:"changes,omitempty"`
	// Drifts are the gradual changes: runs of two or more consecutive
	// change points in one direction that a straight line describes
	// better, reported as one drift each in place of them (absent when
	// none). Changes holds the other change points, the steps.
	Drifts []SeriesDrift `json:"drifts,omitempty"`
	// Detection is how Changes were found; absent when they were not
	// looked for.
	Detection *Detection `json:"detection,omitempty"`
}

// SeriesDrift is a gradual change of a series over the points From to
// To (inclusive): FromRun and ToRun are their runs (and revisions), Start
// and End the least-squares line's values at them, ChangePct =
// End/Start - 1 in percent, and Changes the number of change points it
// stands for.
type SeriesDrift struct {
	From         int     `json:"from"`
	To           int     `json:"to"`
	FromRun      string  `json:"from_run"`
	ToRun        string  `json:"to_run"`
	FromRevision string  `json:"from_revision,omitempty"`
	ToRevision   string  `json:"to_revision,omitempty"`
	Start        float64 `json:"start"`
	End          float64 `json:"end"`
	ChangePct    float64 `json:"change_pct"`
	Changes      int     `json:"changes"`
}

// Detection names a change-point method and its settings: E-divisive
// means with a permutation test of Permutations draws at Level, seeded,
// read in windows of Window points (0: the whole series at once), each
// change's interval at ConfidencePct.
type Detection struct {
	Method        string  `json:"method"`
	Level         float64 `json:"level"`
	Permutations  int     `json:"permutations"`
	MinSize       int     `json:"min_size"`
	Window        int     `json:"window,omitempty"`
	ConfidencePct float64 `json:"confidence_pct,omitempty"`
	Seed          uint64  `json:"seed"`
}

// SeriesChange is one level shift of a series: Index is its first point
// at the new level; BeforeRun and AfterRun the runs on either side (and
// their revisions); Before and After the medians of the segments either
// side, up to the neighbouring changes; ChangePct = After/Before - 1 in
// percent; ChangeCI its interval (Welch's t on the ratio of the
// segments' means, at Detection.ConfidencePct); P the permutation test's
// p-value; Range where the new level may begin, at the same confidence.
type SeriesChange struct {
	Index          int          `json:"index"`
	BeforeRun      string       `json:"before_run"`
	AfterRun       string       `json:"after_run"`
	BeforeRevision string       `json:"before_revision,omitempty"`
	AfterRevision  string       `json:"after_revision,omitempty"`
	Before         float64      `json:"before"`
	After          float64      `json:"after"`
	ChangePct      float64      `json:"change_pct"`
	ChangeCI       *[2]float64  `json:"change_ci_pct,omitempty"`
	P              float64      `json:"p"`
	Range          *ChangeRange `json:"range,omitempty"`
}

// ChangeRange is where a level shift may have happened: its new level
// begins at a point from From to To (Index among them). BeforeRun is the
// run at From-1, the last one surely at the old level, and AfterRun the
// run at To, the first one surely at the new level; with their revisions,
// the revision range to bisect.
type ChangeRange struct {
	From           int    `json:"from"`
	To             int    `json:"to"`
	BeforeRun      string `json:"before_run"`
	AfterRun       string `json:"after_run"`
	BeforeRevision string `json:"before_revision,omitempty"`
	AfterRevision  string `json:"after_revision,omitempty"`
}

// Kinds of series: per-run levels, and chained paired changes (each
// point the product of the contender/reference time ratios of every
// run's paired comparison up to it, Metric "time_ratio").
const (
	SeriesLevels = "levels"
	SeriesChain  = "chain"
)

// SeriesPoint is one run's value in a series. CI is the interval fb-analyze
// gave the metric (the mean's, the score's), absent for one it gives none
// (median, min); Revision is the run's revision tag, if it has one.
type SeriesPoint struct {
	RunID    string      `json:"run_id"`
	Started  string      `json:"started"`
	Revision string      `json:"revision,omitempty"`
	Value    float64     `json:"value"`
	CI       *[2]float64 `json:"ci,omitempty"`
	N        int         `json:"n"`
}
