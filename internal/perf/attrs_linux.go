//go:build linux

package perf

import (
	"slices"

	"github.com/flybench/flybench/internal/axes"
)

// Read format bits from linux/perf_event.h.
const (
	formatTotalTimeEnabled = 1 << 0
	formatTotalTimeRunning = 1 << 1
	formatID               = 1 << 2
	formatGroup            = 1 << 3

	// readFormat is the group read layout every event is opened with.
	readFormat = formatGroup | formatTotalTimeEnabled | formatTotalTimeRunning | formatID
)

// needed returns, per group spec, the events that must be opened for the
// wanted axes: ipc needs both cycles and instructions.
func needed(want []string) [][]event {
	var out [][]event
	for _, spec := range groupSpecs {
		var evs []event
		for _, e := range spec {
			forIPC := slices.Contains(want, ipc) && (e.axis == "cycles" || e.axis == "instructions")
			if forIPC || slices.Contains(want, e.axis) {
				evs = append(evs, e)
			}
		}
		if len(evs) > 0 {
			out = append(out, evs)
		}
	}
	return out
}

// outcome is the open result of one event, before it becomes a Probe.
type outcome struct {
	status axes.Status
	reason string
}

// software reports whether the event is a kernel software event, which
// counts kernel-side work and so is not opened with exclude_kernel.
func (e event) software() bool { return e.typ == typeSoftware }

// opened is one event that is open.
type opened struct {
	fd            int
	id            uint64
	excludeKernel bool
}

// fullAttr is the attribute set every event is opened with: counting from
// the start, inherited by forked processes, read as a group.
func fullAttr(e event, excludeKernel bool) attr {
	return attr{
		Type: e.typ, Config: e.config,
		ExcludeKernel: excludeKernel || !e.software(), // hardware counts user space only
		ExcludeHV:     true,
		Inherit:       true,
		ReadFormat:    readFormat,
	}
}
