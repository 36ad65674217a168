// Package perf collects the hardware ("perf" family) and software
// ("software" family) counter axes through perf_event_open.
//
// Counters are opened on the calling thread with inherit set and stay
// enabled for the whole session, so every process the thread forks counts
// into them and its totals are folded into the thread's events when it is
// reaped. A value therefore covers the harness's forking thread and the
// processes it starts (axes.ScopeNativeTaskTree). Every sample is the
// difference of two cumulative group reads; PERF_EVENT_IOC_RESET is never
// used because it does not clear counts inherited from exited children.
//
// Opening never fails as a whole: each requested axis gets a Probe whose
// status says exactly why it has no values, and an unavailable axis never
// carries a number.
package perf

import (
	"errors"
	"fmt"
	"slices"

	"github.com/flybench/flybench/internal/axes"
)

// Value is one axis in one sample: Status is axes.Collected with V set, or
// an unavailable status (V is then zero and meaningless).
type Value struct {
	Status axes.Status
	V      float64
}

// Probe describes the outcome of opening one requested axis. Reason
// explains an unavailable status, or qualifies a collected one (for
// example when kernel-side counts had to be excluded).
type Probe struct {
	Axis   string
	Status axes.Status
	Reason string
}

// Session holds the counter groups opened for one set of requested axes.
// It is used from one OS thread: the one that opened it and forks the
// measured processes.
type Session struct {
	sys    syscalls
	probes []Probe          // requested axes, request order
	groups []*group         // open groups, each read with one read(2)
	where  map[string]place // opened event axis → its group and slot
}

// place locates one event's value inside the session's group reads.
type place struct{ group, slot int }

// Probes returns the outcome of opening every requested axis, in request
// order.
func (s *Session) Probes() []Probe { return slices.Clone(s.probes) }

// Close closes every counter. Later snapshots read no groups, so a
// collected axis then reports probe_failed.
func (s *Session) Close() error {
	var errs []error
	for _, g := range s.groups {
		for i := len(g.fds) - 1; i >= 0; i-- { // members before the leader
			if err := s.sys.close(g.fds[i]); err != nil {
				errs = append(errs, fmt.Errorf("close perf event %s: %w", g.axes[i], err))
			}
		}
	}
	s.groups = nil
	s.where = nil
	return errors.Join(errs...)
}
