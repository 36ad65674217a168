package check

import (
	"fmt"
	"math"

	"github.com/flybench/flybench/pkg/ndjson"
)

// timeItem checks a comparison's time: its decision estimate ChangePct
// (positive: the contender is slower) against MaxSlowdownPct and against
// the window sqrt(hw² + noise²), hw the half-width of ChangeCI and noise
// the calibrated noise of that comparison (0 without one). It fails only
// when the change is at least the threshold and outside the window.
func timeItem(c *ndjson.Comparison, set noiseSet, opt Options) ndjson.CheckItem {
	metric := "time"
	if c.Normalized {
		metric = "score"
	}
	it := newItem(KindTime, c, metric)
	it.Unit, it.Threshold = "%", opt.MaxSlowdownPct
	hw := (c.ChangeCI[1] - c.ChangeCI[0]) / 2
	if !finite(c.ChangePct, hw) {
		return skip(it, "no finite change estimate or interval")
	}
	noise, found := set.lookup(keyFor(c, "time"))
	it.Value, it.Window = c.ChangePct, math.Hypot(hw, noise)
	parts := windowParts(hw, noise, found, set.has())
	switch {
	case it.Value < it.Threshold:
		return pass(it, fmt.Sprintf("%s: below the %s threshold", slowerFaster(it.Value), pct(it.Threshold)))
	case it.Value <= it.Window:
		return pass(it, fmt.Sprintf("%s: inside the ±%s window (%s)", slowerFaster(it.Value), meas(it.Window), parts))
	}
	return fail(it, fmt.Sprintf("%s: at least %s and outside the ±%s window (%s)",
		slowerFaster(it.Value), pct(it.Threshold), meas(it.Window), parts))
}

// windowParts says what a time window is made of.
func windowParts(hw, noise float64, found, profile bool) string {
	switch {
	case found:
		return fmt.Sprintf("interval ±%s, noise ±%s", meas(hw), meas(noise))
	case profile:
		return fmt.Sprintf("interval ±%s; the profile has no noise for this comparison", meas(hw))
	}
	return fmt.Sprintf("interval ±%s; no noise profile", meas(hw))
}

// slowerFaster says which way a time change goes.
func slowerFaster(change float64) string {
	switch {
	case change > 0:
		return "slower by " + meas(change)
	case change < 0:
		return "faster by " + meas(-change)
	}
	return "no change"
}

func pass(it ndjson.CheckItem, why string) ndjson.CheckItem {
	it.Outcome, it.Why = ndjson.CheckItemPass, why
	return it
}

func fail(it ndjson.CheckItem, why string) ndjson.CheckItem {
	it.Outcome, it.Why = ndjson.CheckItemFail, why
	return it
}

func skip(it ndjson.CheckItem, why string) ndjson.CheckItem {
	it.Outcome, it.Why, it.Value, it.Window = ndjson.CheckItemSkip, why, 0, 0
	return it
}

// finite reports whether every value is a number JSON can carry.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
