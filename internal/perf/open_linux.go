//go:build linux

package perf

import (
	"fmt"

	"github.com/flybench/flybench/internal/axes"
)

// Open opens counters for the requested axis names (cycles, instructions,
// ipc, cache_misses, branches, branch_misses, task_clock, context_switches,
// cpu_migrations, page_faults; others are ignored) on the calling thread.
// It never fails as a whole: every requested axis gets a Probe. The caller
// must have locked its goroutine to the OS thread, fork the measured
// processes from it, and Close the session on it.
func Open(requested []string) *Session { return openWith(realSys{}, requested) }

// openThread opens the requested counters on thread tid of any process.
func openThread(tid int, requested []string) *Session {
	return openWith(realSys{tid: tid}, requested)
}

// openWith is Open on injected system calls.
func openWith(sys syscalls, requested []string) *Session {
	want := wanted(requested)
	s := &Session{sys: sys, where: map[string]place{}}
	results := map[string]outcome{}
	op := opener{sys: sys}
	for _, evs := range needed(want) {
		g := op.openGroup(evs, results)
		if g == nil {
			continue
		}
		for slot, a := range g.axes {
			s.where[a] = place{group: len(s.groups), slot: slot}
		}
		s.groups = append(s.groups, g)
	}
	for _, a := range want {
		s.probes = append(s.probes, probeFor(a, results))
	}
	if len(s.groups) > 0 {
		// Until the thread has been switched out and back in once after
		// its events were installed, a child forked from it may lose its
		// software-event counts (page faults, context switches): measured
		// on Linux 6.18, up to two thirds of first children when parent and
		// child share a CPU. One brief sleep settles the events.
		sys.reschedule()
	}
	return s
}

// probeFor turns open outcomes into the axis's probe; ipc takes the first
// unavailable outcome of the two events it divides.
func probeFor(axis string, results map[string]outcome) Probe {
	if axis != ipc {
		r := results[axis]
		return Probe{Axis: axis, Status: r.status, Reason: r.reason}
	}
	for _, dep := range []string{"cycles", "instructions"} {
		if r := results[dep]; r.status != axes.Collected {
			return Probe{Axis: ipc, Status: r.status, Reason: fmt.Sprintf("needs %s: %s", dep, r.reason)}
		}
	}
	return Probe{Axis: ipc, Status: axes.Collected}
}

// opener opens events and classifies their failures.
type opener struct{ sys syscalls }

// openGroup opens evs as one group, leader first, and records every
// event's outcome. A failed leader fails every member with its status; a
// failed member leaves the rest of the group usable. It returns nil when
// the leader did not open.
func (op opener) openGroup(evs []event, results map[string]outcome) *group {
	leader, res := op.openEvent(evs[0], -1, false)
	results[evs[0].axis] = res
	if res.status != axes.Collected {
		for _, e := range evs[1:] {
			results[e.axis] = outcome{res.status, fmt.Sprintf("group leader %s did not open: %s", evs[0].axis, res.reason)}
		}
		return nil
	}
	g := &group{fds: []int{leader.fd}, axes: []string{evs[0].axis}, ids: []uint64{leader.id}}
	for _, e := range evs[1:] {
		m, res := op.openEvent(e, leader.fd, leader.excludeKernel)
		if res.status == axes.Collected && res.reason == "" && leader.excludeKernel && e.software() {
			res.reason = results[evs[0].axis].reason // excluded like the leader, for the same reason
		}
		results[e.axis] = res
		if res.status == axes.Collected {
			g.fds, g.axes, g.ids = append(g.fds, m.fd), append(g.axes, e.axis), append(g.ids, m.id)
		}
	}
	g.buf = make([]byte, groupReadSize(len(g.fds)))
	return g
}

// openEvent opens one event. A software event refused with kernel-side
// counting is retried with exclude_kernel, and the outcome says so.
func (op opener) openEvent(e event, groupFd int, excludeKernel bool) (opened, outcome) {
	a := fullAttr(e, excludeKernel)
	fd, err := op.sys.open(a, groupFd)
	note := ""
	if errno, ok := errnoOf(err); ok && e.software() && !a.ExcludeKernel && isPermission(errno) {
		note = "kernel-side counts excluded, counts cover user space only: " + op.permissionReason(false, errno)
		a.ExcludeKernel = true
		fd, err = op.sys.open(a, groupFd)
	}
	if err != nil {
		return opened{}, op.classify(a, err)
	}
	id, err := op.sys.id(fd)
	if err != nil {
		op.sys.close(fd)
		return opened{}, outcome{axes.ProbeFailed, fmt.Sprintf("PERF_EVENT_IOC_ID on %s: %v", e.axis, err)}
	}
	return opened{fd, id, a.ExcludeKernel}, outcome{axes.Collected, note}
}
