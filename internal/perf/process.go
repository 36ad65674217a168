package perf

import (
	"fmt"
	"os"
	"sort"
	"strconv"

	"github.com/flybench/flybench/internal/axes"
)

// Process is a counter session on every thread of another process (a
// long-lived worker): one group set per thread that existed when it was
// opened, each with inherit, so threads the worker starts later count into
// their creator's. A sample sums the threads; a thread that did not run in
// the window contributes nothing rather than making the axis unavailable.
type Process struct {
	pid     int
	threads []*Session
	probes  []Probe
}

// ProcessSnapshot is one read of every thread's groups.
type ProcessSnapshot struct {
	reads []Snapshot
}

// OpenProcess opens the requested counters on each thread of pid.
func OpenProcess(pid int, requested []string) *Process {
	p := &Process{pid: pid}
	tids, err := threads(pid)
	if err != nil {
		p.probes = failed(requested, err)
		return p
	}
	for _, tid := range tids {
		s := openThread(tid, requested)
		p.threads = append(p.threads, s)
		if p.probes == nil {
			p.probes = s.Probes()
		}
	}
	return p
}

// failed gives every requested axis probe_failed with err as the reason.
func failed(requested []string, err error) []Probe {
	var out []Probe
	for _, a := range wanted(requested) {
		out = append(out, Probe{Axis: a, Status: axes.ProbeFailed, Reason: err.Error()})
	}
	return out
}

// threads lists the thread ids of pid, ascending.
func threads(pid int) ([]int, error) {
	entries, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return nil, fmt.Errorf("list threads of pid %d: %w", pid, err)
	}
	var tids []int
	for _, e := range entries {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			tids = append(tids, tid)
		}
	}
	sort.Ints(tids)
	return tids, nil
}

// Probes is the outcome per requested axis (the first thread's: every
// thread opens the same events).
func (p *Process) Probes() []Probe { return p.probes }

// Snapshot reads every thread's groups.
func (p *Process) Snapshot() ProcessSnapshot {
	snap := ProcessSnapshot{reads: make([]Snapshot, len(p.threads))}
	for i, s := range p.threads {
		snap.reads[i] = s.Snapshot()
	}
	return snap
}

// Delta sums the threads' values per operation. Per thread, a counter
// whose enabled time did not advance belongs to a thread that did not run:
// it adds zero. ipc is the summed instructions over the summed cycles.
func (p *Process) Delta(before, after ProcessSnapshot, n int64) map[string]Value {
	out := make(map[string]Value, len(p.probes))
	for _, pr := range p.probes {
		if pr.Status != axes.Collected {
			out[pr.Axis] = Value{Status: pr.Status}
			continue
		}
		if pr.Axis == ipc {
			out[pr.Axis] = p.ipc(before, after)
			continue
		}
		v, st := p.sum(pr.Axis, before, after)
		if st == axes.Collected && n > 0 {
			v /= float64(n)
		}
		out[pr.Axis] = Value{Status: st, V: v}
	}
	return out
}

func (p *Process) ipc(before, after ProcessSnapshot) Value {
	return ipcOf(func(axis string) (float64, axes.Status) { return p.sum(axis, before, after) })
}

// sum adds one event over the threads.
func (p *Process) sum(axis string, before, after ProcessSnapshot) (float64, axes.Status) {
	if len(before.reads) != len(p.threads) || len(after.reads) != len(p.threads) {
		return 0, axes.ProbeFailed
	}
	var total float64
	for i, s := range p.threads {
		if s.idle(axis, before.reads[i], after.reads[i]) {
			continue
		}
		v, st := s.scaled(axis, before.reads[i], after.reads[i])
		if st != axes.Collected {
			return 0, st
		}
		total += v
	}
	return total, axes.Collected
}

// idle reports whether the event's thread never ran in the window.
func (s *Session) idle(axis string, before, after Snapshot) bool {
	at, ok := s.where[axis]
	if !ok || !s.owns(before) || !s.owns(after) {
		return false
	}
	b, a := before.reads[at.group], after.reads[at.group]
	return b.err == nil && a.err == nil && a.enabled == b.enabled
}

// Close closes every thread's counters.
func (p *Process) Close() error {
	var first error
	for _, s := range p.threads {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
