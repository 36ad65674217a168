package check

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// isMemory reports whether an axis measures memory: its unit is an amount
// of bytes ("bytes", "byte" or "B", alone or per something: rss_peak,
// rss_change, a worker's alloc_bytes or live_heap) and its family is not
// "io" (read_bytes and write_bytes count storage traffic, not memory).
// The family is the run record's, or the built-in axis's when the run
// does not list the axis.
func isMemory(a *ndjson.AxisComparison, run *ndjson.Run) bool {
	if !bytesUnit(a.Unit) {
		return false
	}
	family := ""
	if b, ok := axes.Lookup(a.Name); ok {
		family = b.Family
	}
	for _, info := range run.Axes {
		if info.Name == a.Name {
			family = info.Family
		}
	}
	return family != axes.FamilyIO
}

// bytesUnit reports whether unit is an amount of bytes, alone or per
// something.
func bytesUnit(unit string) bool {
	base, _, _ := strings.Cut(unit, "/")
	switch strings.TrimSpace(base) {
	case "bytes", "byte", "B":
		return true
	}
	return false
}

// perSomething reports whether unit is per operation (or per anything),
// not a plain amount.
func perSomething(unit string) bool { return strings.Contains(unit, "/") }

// growth is a memory axis's change: in percent of the reference, the low
// end of its interval in percent, and in the axis unit.
type growth struct {
	pct, lowPct, abs float64
}

// growthOf reads an available axis result as a growth. A result in the
// axis unit ("absolute") is divided by the reference median; false when
// that median is not positive, so there is no percentage.
func growthOf(r *ndjson.AxisResult) (growth, bool) {
	if strings.HasPrefix(r.Method, "absolute") {
		if r.RefMedian <= 0 {
			return growth{abs: r.Change}, false
		}
		return growth{pct: 100 * r.Change / r.RefMedian, lowPct: 100 * r.CI[0] / r.RefMedian, abs: r.Change}, true
	}
	return growth{pct: r.Change, lowPct: r.CI[0], abs: r.RefMedian * r.Change / 100}, true
}

// floorFor is the absolute floor of an axis in its unit.
func floorFor(unit string, opt Options) float64 {
	if perSomething(unit) {
		return opt.MemoryFloorOp
	}
	return opt.MemoryFloor
}

// memoryItem checks one memory axis of a comparison. It fails when the
// growth is at least MaxMemoryGrowthPct, the absolute growth is at least
// the floor, and the growth is outside the window: above the calibrated
// noise of the axis (when the profile has it) and above the distance from
// the estimate down to its interval's low end (the interval excludes no
// growth). The window is the larger of the two.
func memoryItem(c *ndjson.Comparison, a *ndjson.AxisComparison, set noiseSet, opt Options) ndjson.CheckItem {
	it := newItem(KindMemory, c, a.Name)
	it.Unit, it.Threshold = "%", opt.MaxMemoryGrowthPct
	if !a.Available || a.Result == nil {
		return skip(it, unavailable(a))
	}
	g, ok := growthOf(a.Result)
	floor := floorFor(a.Unit, opt)
	if !ok {
		return zeroReferenceItem(it, a, floor)
	}
	if !finite(g.pct, g.lowPct, g.abs) {
		return skip(it, "no finite change estimate or interval")
	}
	noise, found := set.lookup(keyFor(c, a.Name))
	it.Value, it.Window = g.pct, g.pct-g.lowPct
	if found {
		it.Window = max(it.Window, noise)
	}
	what := fmt.Sprintf("%s (%s)", grewShrank(g.pct), signedAmount(g.abs, a.Unit))
	switch {
	case g.pct < it.Threshold:
		return pass(it, fmt.Sprintf("%s: below the %s threshold", what, pct(it.Threshold)))
	case g.abs < floor:
		return pass(it, fmt.Sprintf("%s: under the %s floor", what, amount(floor, a.Unit)))
	case g.pct <= it.Window:
		return pass(it, fmt.Sprintf("%s: inside the %s window (%s)", what, meas(it.Window), memoryParts(g, noise, found)))
	}
	least := pct(it.Threshold)
	if floor > 0 {
		least += " and " + amount(floor, a.Unit)
	}
	return fail(it, fmt.Sprintf("%s: at least %s, outside the %s window (%s)", what, least, meas(it.Window), memoryParts(g, noise, found)))
}

// zeroReferenceItem checks a growth from a reference median at or below
// zero, which has no percentage: in the axis unit, on the interval and the
// floor alone. A growth the interval does not explain is skipped when
// there is no floor, since then no practical threshold applies.
func zeroReferenceItem(it ndjson.CheckItem, a *ndjson.AxisComparison, floor float64) ndjson.CheckItem {
	r := a.Result
	if !finite(r.Change, r.CI[0], r.RefMedian) {
		return skip(it, "no finite change estimate or interval")
	}
	it.Unit, it.Threshold = a.Unit, floor
	it.Value, it.Window = r.Change, r.Change-r.CI[0]
	what := fmt.Sprintf("changed by %s from a reference median of %s", signedAmount(r.Change, a.Unit), amount(r.RefMedian, a.Unit))
	switch {
	case r.Change <= 0:
		return pass(it, what+": no growth")
	case r.CI[0] <= 0:
		return pass(it, fmt.Sprintf("%s: inside its interval, which reaches %s", what, signedAmount(r.CI[0], a.Unit)))
	case floor <= 0:
		return skip(it, what+": no relative growth to compare with the threshold, and no floor; set one to judge it")
	case r.Change < floor:
		return pass(it, fmt.Sprintf("%s: under the %s floor", what, amount(floor, a.Unit)))
	}
	return fail(it, fmt.Sprintf("%s: at least the %s floor, and its interval excludes no growth", what, amount(floor, a.Unit)))
}

// memoryParts says what a memory window is made of.
func memoryParts(g growth, noise float64, found bool) string {
	low := "the interval reaches " + signedPct(g.lowPct)
	if found {
		return low + ", noise " + meas(noise)
	}
	return low
}

func grewShrank(p float64) string {
	switch {
	case p > 0:
		return "grew by " + meas(p)
	case p < 0:
		return "shrank by " + meas(-p)
	}
	return "no change"
}

// unavailable says why an axis has no result: its reason, which names
// the status, or the status alone.
func unavailable(a *ndjson.AxisComparison) string {
	status := strings.ReplaceAll(a.Status, "_", " ")
	switch {
	case status == "" && a.Reason == "":
		return "unavailable"
	case a.Reason == "":
		return status
	case strings.Contains(a.Reason, status), strings.Contains(a.Reason, a.Status):
		return a.Reason
	}
	return status + ": " + a.Reason
}
