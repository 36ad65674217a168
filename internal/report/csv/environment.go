package csv

import (
	"strconv"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// setEnvironment fills the environment columns from the run's environment
// record. Without one they stay empty. The foreign shares and the
// contaminated count stay empty too when no window was judged: a zero
// there would read as a clean host that nobody watched.
func (row csvRow) setEnvironment(r *model.Run) {
	e := r.Environment
	if e == nil {
		return
	}
	row.set("watched", strconv.FormatBool(e.Watched))
	row.set("attribution", e.Attribution)
	row.set("budget_exhausted", strconv.FormatBool(e.BudgetExhausted))
	row.set("attribution_diluted", strconv.FormatBool(e.AttributionDiluted))
	row.set("placement", e.Placement)
	row.set("lock", e.Lock)
	row.set("gate", e.Gate)
	row.set("paused_ns", strconv.FormatInt(e.PausedNS, 10))
	row.setInts(map[string]int{"windows": e.Windows, "observed_samples": e.ObservedSamples,
		"retaken_samples": e.RetakenSamples, "pauses": e.Pauses})
	if e.Watched {
		row.set("contaminated_samples", strconv.Itoa(e.ContaminatedSample))
		row.setFloats(map[string]float64{"mean_foreign_pct": e.MeanForeignPct, "peak_foreign_pct": e.PeakForeignPct})
	}
	row.set("conditions_profile", conditionsProfile(e.Conditions))
	row.set("conditions_throttle", conditionsThrottle(e.Conditions))
}

// conditionsProfile is the profile the run ended under, "unavailable"
// when no detector could read it, "not_checked" without a policy.
func conditionsProfile(c *ndjson.EnvironmentConditions) string {
	switch {
	case c == nil:
		return "not_checked"
	case c.ProfileAvailability != ndjson.Available:
		return ndjson.Unavailable
	}
	return c.FinalProfile
}

// conditionsThrottle is the number of throttle events during the run,
// "unavailable" when the counters could not be read, "not_checked"
// without a policy.
func conditionsThrottle(c *ndjson.EnvironmentConditions) string {
	switch {
	case c == nil:
		return "not_checked"
	case c.ThrottleAvailability != ndjson.Available || c.ThrottleEvents == nil:
		return ndjson.Unavailable
	}
	return strconv.FormatInt(*c.ThrottleEvents, 10)
}
