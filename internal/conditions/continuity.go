package conditions

import (
	"fmt"
	"maps"
	"slices"
)

// CounterReading is one family of throttle counters (events or milliseconds)
// as of one observation.
type CounterReading struct {
	// Available is false when the counters were never found or lost their
	// continuity; Reason then says why, for the rest of the run.
	Available bool
	Reason    string
	// Total is the cumulative sum over the objects found at the first
	// observation; Increase is its growth since the previous observation.
	Total    int64
	Increase int64
}

// counterTrack follows one counter family across a run. The objects found at
// the first observation are the ones followed; an object that later
// disappears or goes backwards ends the family's availability for good,
// since the increase across that gap is unknowable.
type counterTrack struct {
	name    string // counter name pattern, for reasons
	started bool
	base    map[string]int64
	last    map[string]int64
	lost    string
}

// advance folds in one snapshot of the family and reports the reading;
// unsupported, when not "", is why the platform has no such counters.
func (c *counterTrack) advance(cur map[string]int64, unsupported string) CounterReading {
	if !c.started {
		c.start(cur, unsupported)
		return c.reading(0)
	}
	if c.lost != "" {
		return c.reading(0)
	}
	if reason := c.broken(cur); reason != "" {
		c.lost = reason
		return c.reading(0)
	}
	prev := sum(c.last)
	c.last = c.keep(cur)
	return c.reading(sum(c.last) - prev)
}

// start takes the first snapshot as the baseline.
func (c *counterTrack) start(cur map[string]int64, unsupported string) {
	c.started = true
	switch {
	case len(cur) == 0 && unsupported != "":
		c.lost = unsupported
		return
	case len(cur) == 0:
		c.lost = fmt.Sprintf("no %s counters in %q", c.name, "/"+cpuRoot+"/cpu*/thermal_throttle")
		return
	}
	c.base, c.last = cur, cur
}

// broken says how cur breaks continuity with the last snapshot, or "".
func (c *counterTrack) broken(cur map[string]int64) string {
	for _, k := range slices.Sorted(maps.Keys(c.last)) {
		v, ok := cur[k]
		switch {
		case !ok:
			return fmt.Sprintf("%s of %s disappeared", c.name, k)
		case v < c.last[k]:
			return fmt.Sprintf("%s of %s went backwards (%d to %d)", c.name, k, c.last[k], v)
		}
	}
	return ""
}

// keep restricts cur to the followed objects; objects that appear later
// (a CPU brought online) have no baseline and are ignored.
func (c *counterTrack) keep(cur map[string]int64) map[string]int64 {
	m := make(map[string]int64, len(c.base))
	for k := range c.base {
		m[k] = cur[k]
	}
	return m
}

func (c *counterTrack) reading(increase int64) CounterReading {
	if c.lost != "" {
		return CounterReading{Reason: c.lost}
	}
	return CounterReading{Available: true, Total: sum(c.last), Increase: increase}
}

// continuous reports whether the family was found at the first observation
// and has kept its continuity since.
func (c *counterTrack) continuous() bool { return c.started && c.lost == "" }

// growth is the increase from the baseline to the last continuous snapshot.
func (c *counterTrack) growth() int64 { return sum(c.last) - sum(c.base) }

func sum(m map[string]int64) int64 {
	var t int64
	for _, v := range m {
		t += v
	}
	return t
}
