package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// RefUnits names the unit of a normalized score.
const RefUnits = "ref-units"

// Yardstick is what a report says of the reference workload's case.
const Yardstick = "yardstick (reference workload)"

// score is a normalized score: "0.8123".
func score(v float64) string { return fmt.Sprintf("%.4g", v) }

// Score is "0.8123 ref-units [0.8012, 0.8234]".
func Score(n *ndjson.Normalized) string {
	return fmt.Sprintf("%s %s [%s, %s]", score(n.Score), RefUnits, score(n.CI[0]), score(n.CI[1]))
}

// NormalizedCell is case i's entry in a normalized column: its score, the
// yardstick mark, or n/a.
func NormalizedCell(r *model.Run, i int) string {
	if i == r.ReferenceWorkload() {
		return "yardstick"
	}
	if s := r.Summary(i); s != nil && s.Normalized != nil {
		return Score(s.Normalized)
	}
	return "n/a"
}
