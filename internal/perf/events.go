package perf

import "slices"

// Event types and configs from linux/perf_event.h, kept here so the
// portable logic does not need golang.org/x/sys/unix.
const (
	typeHardware = 0
	typeSoftware = 1

	hwCPUCycles          = 0
	hwInstructions       = 1
	hwCacheMisses        = 3
	hwBranchInstructions = 4
	hwBranchMisses       = 5

	swTaskClock       = 1
	swPageFaults      = 2
	swContextSwitches = 3
	swCPUMigrations   = 4
)

// ipc is derived from the cycles and instructions of one group window.
const ipc = "ipc"

// event is one counter that backs an axis of the same name.
type event struct {
	axis   string
	typ    uint32
	config uint64
}

// groupSpecs lists the counter groups, leader first. Cycles and
// instructions share a group so ipc divides counts of one window; the other
// hardware events stand alone so a PMU with few counters can still schedule
// each, with its own multiplexing correction.
var groupSpecs = [][]event{
	{{"cycles", typeHardware, hwCPUCycles}, {"instructions", typeHardware, hwInstructions}},
	{{"cache_misses", typeHardware, hwCacheMisses}},
	{{"branches", typeHardware, hwBranchInstructions}},
	{{"branch_misses", typeHardware, hwBranchMisses}},
	{
		{"task_clock", typeSoftware, swTaskClock},
		{"context_switches", typeSoftware, swContextSwitches},
		{"cpu_migrations", typeSoftware, swCPUMigrations},
		{"page_faults", typeSoftware, swPageFaults},
	},
}

// maxMembers bounds a group's size so a snapshot stores reads inline.
const maxMembers = 4

// known reports whether the package backs the axis.
func known(axis string) bool {
	if axis == ipc {
		return true
	}
	for _, spec := range groupSpecs {
		if slices.ContainsFunc(spec, func(e event) bool { return e.axis == axis }) {
			return true
		}
	}
	return false
}

// wanted keeps the requested axes this package backs, deduplicated, in
// request order.
func wanted(requested []string) []string {
	var out []string
	for _, a := range requested {
		if known(a) && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}
