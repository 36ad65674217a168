package hostload

import (
	"maps"
	"slices"
	"sort"
)

// Why a CPU has no data between two snapshots.
const (
	Appeared    = "appeared"       // only in the later snapshot (brought online)
	Disappeared = "disappeared"    // only in the earlier snapshot (taken offline)
	Backwards   = "went backwards" // a counter decreased: no trustworthy delta
)

// Skip is a CPU left out of a utilization, and why.
type Skip struct {
	CPU    int
	Reason string
}

// Util is the CPU utilization between two snapshots.
type Util struct {
	// AveragePct is the host-wide busy share, 0 to 100: busy time over
	// all time, summed over the CPUs with data.
	AveragePct float64
	// CPUPct is each CPU's busy share, for the CPUs with data. A CPU whose
	// counters did not move (no tick passed) has none and is not skipped.
	CPUPct map[int]float64
	// BusiestCPU has the largest share (the lowest id on ties), and
	// BusiestPct is that share; BusiestCPU is -1 when no CPU has data.
	BusiestCPU int
	BusiestPct float64
	// ElapsedTicks is the longest interval any CPU counted, in ticks; 0
	// means not one tick passed and the percentages mean nothing.
	ElapsedTicks int64
	// Skipped lists, by id, the CPUs without data because they came or
	// went (hotplug) or their counters went backwards.
	Skipped []Skip
}

// delta is one CPU's busy and total time between snapshots.
type delta struct{ busy, total int64 }

// Utilization compares snapshot a with the later snapshot b.
func Utilization(a, b Snapshot) Util {
	u := Util{CPUPct: map[int]float64{}, BusiestCPU: -1}
	ds, skipped := deltas(a, b, nil)
	u.Skipped = skipped
	var busy, total int64
	for _, id := range slices.Sorted(maps.Keys(ds)) {
		d := ds[id]
		busy, total = busy+d.busy, total+d.total
		u.ElapsedTicks = max(u.ElapsedTicks, d.total/TickNS)
		if d.total == 0 {
			continue
		}
		pct := percent(d.busy, d.total)
		u.CPUPct[id] = pct
		if u.BusiestCPU < 0 || pct > u.BusiestPct {
			u.BusiestCPU, u.BusiestPct = id, pct
		}
	}
	if total > 0 {
		u.AveragePct = percent(busy, total)
	}
	return u
}

// BusyNS sums, over the given CPUs (every CPU when cpus is nil), the busy
// time between snapshots a and b and the capacity: all time counted, busy
// or idle. busy/capacity is their busy share. A CPU without data (see
// Util.Skipped) adds to neither, so the share stays a share of the time
// actually observed.
func BusyNS(a, b Snapshot, cpus []int) (busy, capacity int64) {
	ds, _ := deltas(a, b, cpus)
	for _, d := range ds {
		busy, capacity = busy+d.busy, capacity+d.total
	}
	return busy, capacity
}

// deltas returns the per-CPU differences of the selected CPUs (all when
// cpus is nil) that have trustworthy data, and the ones skipped.
func deltas(a, b Snapshot, cpus []int) (map[int]delta, []Skip) {
	ids := cpus
	if ids == nil {
		ids = union(a, b)
	}
	ds := make(map[int]delta, len(ids))
	var skipped []Skip
	for _, id := range ids {
		ta, inA := a.CPUs[id]
		tb, inB := b.CPUs[id]
		switch {
		case !inA && !inB:
			// Offline throughout, or not a CPU of this host: nothing to say.
		case !inA:
			skipped = append(skipped, Skip{id, Appeared})
		case !inB:
			skipped = append(skipped, Skip{id, Disappeared})
		case backwards(ta, tb):
			skipped = append(skipped, Skip{id, Backwards})
		default:
			ds[id] = delta{busy: tb.Busy() - ta.Busy(), total: tb.Total() - ta.Total()}
		}
	}
	sort.Slice(skipped, func(i, j int) bool { return skipped[i].CPU < skipped[j].CPU })
	return ds, skipped
}

// backwards reports whether any busy counter, or idle and iowait together,
// decreased from a to b. Idle and iowait are checked as a sum because the
// kernel may move time from iowait to idle between reads (proc(5): iowait
// "may decrease"), which is not an error.
func backwards(a, b CPUTimes) bool {
	if b.Idle+b.IOWait < a.Idle+a.IOWait {
		return true
	}
	return b.User < a.User || b.Nice < a.Nice || b.System < a.System ||
		b.IRQ < a.IRQ || b.SoftIRQ < a.SoftIRQ || b.Steal < a.Steal
}

func union(a, b Snapshot) []int {
	ids := a.IDs()
	for id := range b.CPUs {
		if _, ok := a.CPUs[id]; !ok {
			ids = append(ids, id)
		}
	}
	return ids
}

func percent(part, whole int64) float64 {
	return 100 * float64(part) / float64(whole)
}
