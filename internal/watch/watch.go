// Package watch estimates foreign CPU load while a run collects: the busy
// time of the host (or of the watched CPUs) minus the CPU time of this run
// itself — the tool and every process it started — over windows of whole
// units. Host CPU counters are tick-based, so every estimate allows one tick
// per watched CPU of quantization before it calls a window contaminated
// (the allowance is recorded with every window).
package watch

import (
	"time"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/pkg/probes"
)

// TickNS is the unit of /proc/stat (USER_HZ = 100 on Linux).
const TickNS = 10_000_000

// pollEvery is the settle loop's sampling interval.
const pollEvery = 100 * time.Millisecond

// Stat reads cumulative busy time, in nanoseconds, of a set of CPUs (nil:
// every CPU).
type Stat interface {
	Busy(cpus []int) (int64, error)
}

// Self reads this run's own cumulative CPU time, in nanoseconds. A reading
// that fails leaves its window unjudged rather than judged on a stand-in.
type Self interface {
	// Process is every thread of this tool.
	Process() (int64, error)
	// Children is every process this tool started and reaped.
	Children() (int64, error)
	// Thread is the calling (collecting, possibly pinned) thread alone.
	Thread() (int64, error)
}

// Monitor implements collect.Monitor.
type Monitor struct {
	stat    Stat
	self    Self
	clock   probes.Clock
	sleep   func(time.Duration)
	limit   float64
	ncpu    int
	watched []int // nil: host-wide
	diluted bool
	start   reading
	psi     Pressure // nil: not read
}

// reading is one set of cumulative counters.
type reading struct {
	at, busy, process, children, thread int64
	ok                                  bool
	stall                               StallTotals
	stallErr                            error
}

// New returns a host-wide monitor for a machine of ncpu CPUs, or a
// core-scoped one when watched (the placed CPU and its siblings) is set.
func New(stat Stat, self Self, clock probes.Clock, sleep func(time.Duration), limitPct float64, ncpu int, watched []int) *Monitor {
	return &Monitor{stat: stat, self: self, clock: clock, sleep: sleep, limit: limitPct, ncpu: ncpu, watched: watched}
}

func (m *Monitor) read() reading {
	busy, err := m.stat.Busy(m.watched)
	r := reading{at: m.clock.Now(), busy: busy}
	var errP, errC, errT error
	r.process, errP = m.self.Process()
	r.children, errC = m.self.Children()
	r.thread, errT = m.self.Thread()
	r.ok = err == nil && errP == nil && errC == nil && errT == nil
	if m.psi != nil {
		r.stall, r.stallErr = m.psi.Read()
	}
	return r
}

// WithPressure makes every window's estimate carry the host's pressure
// stall information read from p.
func (m *Monitor) WithPressure(p Pressure) *Monitor {
	m.psi = p
	return m
}

// Begin marks the start of a window.
func (m *Monitor) Begin() { m.start = m.read() }

// End estimates the window since Begin.
func (m *Monitor) End() collect.Estimate {
	end := m.read()
	est := m.estimate(m.start, end)
	m.pressure(&est, m.start, end)
	m.start = end
	if est.Diluted { // the watched set changed: start over host-wide
		m.start = m.read()
	}
	return est
}

// estimate compares host busy time with this run's own CPU time between
// two readings. Core-scoped, the run's own time on the watched CPUs is its
// pinned children and its pinned thread; its other threads run elsewhere
// or, when they land on the watched CPUs, look like foreign load — when
// they use more than the limit's share of the watched capacity the answer
// is no longer about foreign load, and the monitor goes host-wide.
func (m *Monitor) estimate(a, b reading) collect.Estimate {
	est := collect.Estimate{Attribution: m.attribution(), WatchedCPUs: m.watched}
	wall := b.at - a.at
	if !a.ok || !b.ok || wall <= 0 {
		return est
	}
	capacity := wall * int64(m.cpus())
	own := b.children - a.children + b.process - a.process
	if m.watched != nil {
		own = b.children - a.children + b.thread - a.thread
		others := (b.process - a.process) - (b.thread - a.thread)
		if 100*float64(others)/float64(capacity) > m.limit {
			m.diluted, m.watched = true, nil
			est.Diluted = true
		}
	}
	busy := b.busy - a.busy
	est.HostBusyPct = pct(busy, capacity)
	est.OwnPct = pct(own, capacity)
	est.ForeignPct = max(0, pct(busy-own, capacity))
	est.AllowancePct = pct(int64(len(est.WatchedCPUs)+m.hostCPUs(est))*TickNS, capacity)
	est.Judged = wall >= TickNS
	return est
}

// pressure adds the stall information between two readings to est, or
// the reason it has none.
func (m *Monitor) pressure(est *collect.Estimate, a, b reading) {
	switch {
	case m.psi == nil:
	case a.stallErr != nil:
		est.PressureUnavailable = a.stallErr.Error()
	case b.stallErr != nil:
		est.PressureUnavailable = b.stallErr.Error()
	case b.at > a.at:
		est.Pressure = pressureOver(a.stall, b.stall, b.at-a.at)
	}
}

// hostCPUs is the CPU count of a host-wide estimate (0 when core-scoped,
// whose CPUs are in WatchedCPUs).
func (m *Monitor) hostCPUs(est collect.Estimate) int {
	if est.WatchedCPUs == nil {
		return m.ncpu
	}
	return 0
}

func (m *Monitor) cpus() int {
	if m.watched != nil {
		return len(m.watched)
	}
	return m.ncpu
}

func (m *Monitor) attribution() string {
	if m.watched != nil {
		return "core_scoped"
	}
	return "host_wide"
}

func pct(part, whole int64) float64 {
	return min(100, 100*float64(part)/float64(whole))
}

// Settle waits until foreign load has stayed within the limit for settle,
// polling every 100 ms, for at most maxWait.
func (m *Monitor) Settle(settle, maxWait time.Duration) (time.Duration, bool) {
	began := m.clock.Now()
	quietSince := int64(-1)
	prev := m.read()
	for {
		now := m.clock.Now()
		if now-began >= int64(maxWait) {
			return time.Duration(now - began), false
		}
		m.sleep(min(pollEvery, time.Duration(int64(maxWait)-(now-began))))
		cur := m.read()
		est := m.estimate(prev, cur)
		prev = cur
		if !est.Judged || est.ForeignPct-est.AllowancePct > m.limit {
			quietSince = -1
			continue
		}
		if quietSince < 0 {
			quietSince = cur.at - int64(pollEvery)
		}
		if cur.at-quietSince >= int64(settle) {
			m.start = cur
			return time.Duration(cur.at - began), true
		}
	}
}
