package perf

import (
	"math"

	"github.com/flybench/flybench/internal/axes"
)

// Delta returns, for every requested axis, its value over the window
// between two snapshots divided by n logical operations; ipc is a ratio of
// one window and is not divided, task_clock is in nanoseconds.
// Multiplexed counts are scaled by Δtime_enabled/Δtime_running of the same
// pair of reads; a counter that did not run in the window has no value
// (counter_resources_unavailable), never zero.
func (s *Session) Delta(before, after Snapshot, n int64) map[string]Value {
	out := make(map[string]Value, len(s.probes))
	for _, p := range s.probes {
		out[p.Axis] = s.axisDelta(p, before, after, n)
	}
	return out
}

func (s *Session) axisDelta(p Probe, before, after Snapshot, n int64) Value {
	if p.Status != axes.Collected {
		return Value{Status: p.Status}
	}
	if p.Axis == ipc {
		return s.ipcDelta(before, after)
	}
	v, st := s.scaled(p.Axis, before, after)
	switch {
	case st != axes.Collected:
		return Value{Status: st}
	case n <= 0:
		return Value{Status: axes.InvalidValue}
	}
	return Value{Status: axes.Collected, V: v / float64(n)}
}

// ipcDelta divides instructions by cycles of the same group window; the
// multiplexing scale is common to both and cancels.
func (s *Session) ipcDelta(before, after Snapshot) Value {
	return ipcOf(func(axis string) (float64, axes.Status) { return s.scaled(axis, before, after) })
}

// ipcOf is instructions per cycle from the two counts over one window.
func ipcOf(count func(axis string) (float64, axes.Status)) Value {
	cycles, st := count("cycles")
	if st != axes.Collected {
		return Value{Status: st}
	}
	instr, st := count("instructions")
	if st != axes.Collected {
		return Value{Status: st}
	}
	if cycles == 0 {
		return Value{Status: axes.InvalidValue}
	}
	return Value{Status: axes.Collected, V: instr / cycles}
}

// scaled is an event's multiplexing-corrected count over the window.
func (s *Session) scaled(axis string, before, after Snapshot) (float64, axes.Status) {
	at, ok := s.where[axis]
	if !ok || !s.owns(before) || !s.owns(after) {
		return 0, axes.ProbeFailed
	}
	b, a := before.reads[at.group], after.reads[at.group]
	if b.err != nil || a.err != nil || !b.seen[at.slot] || !a.seen[at.slot] {
		return 0, axes.ProbeFailed
	}
	if a.values[at.slot] < b.values[at.slot] || a.enabled < b.enabled || a.running < b.running {
		return 0, axes.CounterReset
	}
	running := a.running - b.running
	if running == 0 {
		return 0, axes.CounterResourcesUnavailable
	}
	enabled := float64(a.enabled - b.enabled)
	v := float64(a.values[at.slot]-b.values[at.slot]) * (enabled / float64(running))
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, axes.InvalidValue
	}
	return v, axes.Collected
}

// owns reports whether snap was taken by this session with its current
// groups.
func (s *Session) owns(snap Snapshot) bool {
	return snap.owner == s && len(snap.reads) == len(s.groups)
}
