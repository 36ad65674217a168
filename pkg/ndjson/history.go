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
	Series string            `json:"series"`
	Case   string            `json:"case"`
	Metric string            `json:"metric"`
	Class  string            `json:"class"`
	Where  map[string]string `json:"where,omitempty"`
	Total  int               `json:"total"`
	Points []SeriesPoint     `json:"points"`
}

// SeriesLevels is the series of per-run levels.
const SeriesLevels = "levels"

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
