package watch

import (
	"math"
	"testing"
	"time"
)

type clock struct{ now int64 }

func (c *clock) Now() int64 { return c.now }

// host is a scripted machine: busy time per CPU and this run's own time.
type host struct {
	clk                       *clock
	busy                      map[int]int64
	process, children, thread int64
	foreignPerSec, ownPerSec  float64 // cores busy with foreign / own work
	othersPerSec              float64 // this tool's other threads, on CPU 0
	placedOn                  int
	ncpu                      int
}

func (h *host) advance(d time.Duration) {
	ns := int64(d)
	h.clk.now += ns
	own := int64(h.ownPerSec * float64(ns))
	foreign := int64(h.foreignPerSec * float64(ns))
	others := int64(h.othersPerSec * float64(ns))
	h.children += own
	h.process += others
	h.busy[h.placedOn] += own
	h.busy[0] += others
	// Foreign work spreads over every CPU.
	for c := 0; c < h.ncpu; c++ {
		h.busy[c] += foreign / int64(h.ncpu)
	}
}

func (h *host) Busy(cpus []int) (int64, error) {
	var sum int64
	for c, b := range h.busy {
		if cpus == nil || contains(cpus, c) {
			sum += b
		}
	}
	return sum, nil
}
func (h *host) Process() (int64, error)  { return h.process, nil }
func (h *host) Children() (int64, error) { return h.children, nil }
func (h *host) Thread() (int64, error)   { return h.thread, nil }

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func newHost(ncpu int) *host {
	return &host{clk: &clock{}, busy: map[int]int64{}, ncpu: ncpu}
}

func TestOwnLoadIsNotForeign(t *testing.T) {
	h := newHost(2)
	h.ownPerSec, h.placedOn = 1, 1 // the benchmark saturates one core
	m := New(h, h, h.clk, h.advance, 10, 2, nil)
	m.Begin()
	h.advance(100 * time.Millisecond)
	est := m.End()
	if !est.Judged || est.ForeignPct != 0 || math.Abs(est.OwnPct-50) > 1e-9 || est.Attribution != "host_wide" {
		t.Fatalf("own load read as foreign: %+v", est)
	}
	// Two ticks (one per CPU) of a 200 ms-CPU window: 10%.
	if math.Abs(est.AllowancePct-10) > 1e-9 {
		t.Fatalf("allowance %v", est.AllowancePct)
	}
}

func TestForeignLoadMeasured(t *testing.T) {
	h := newHost(4)
	h.ownPerSec, h.foreignPerSec = 1, 2 // two foreign cores of four
	m := New(h, h, h.clk, h.advance, 10, 4, nil)
	m.Begin()
	h.advance(time.Second)
	est := m.End()
	if math.Abs(est.ForeignPct-50) > 0.01 || math.Abs(est.HostBusyPct-75) > 0.01 {
		t.Fatalf("estimate %+v, want 50%% foreign of 75%% busy", est)
	}
}

func TestShortWindowIsNotJudged(t *testing.T) {
	h := newHost(2)
	m := New(h, h, h.clk, h.advance, 10, 2, nil)
	m.Begin()
	h.advance(5 * time.Millisecond)
	if est := m.End(); est.Judged {
		t.Fatalf("a window shorter than a tick was judged: %+v", est)
	}
}

func TestCoreScopedAndDilution(t *testing.T) {
	h := newHost(4)
	h.ownPerSec, h.placedOn = 1, 2
	m := New(h, h, h.clk, h.advance, 10, 4, []int{2, 3})
	m.Begin()
	h.advance(time.Second)
	est := m.End()
	if est.Attribution != "core_scoped" || est.ForeignPct != 0 || math.Abs(est.OwnPct-50) > 1e-9 {
		t.Fatalf("core-scoped %+v", est)
	}
	// The tool's other threads now use 30% of the watched capacity:
	// core-scoped attribution can no longer answer, so it gives way.
	h.othersPerSec = 0.6
	h.advance(time.Second)
	est = m.End()
	if !est.Diluted {
		t.Fatalf("not diluted: %+v", est)
	}
	h.advance(time.Second)
	if est = m.End(); est.Attribution != "host_wide" || est.Diluted {
		t.Fatalf("after dilution %+v", est)
	}
}

func TestSettleWaitsForContinuousQuiet(t *testing.T) {
	h := newHost(2)
	h.foreignPerSec = 2
	m := New(h, h, h.clk, func(d time.Duration) {
		h.advance(d)
		if h.clk.now >= int64(time.Second) {
			h.foreignPerSec = 0 // the compile job ends after one second
		}
	}, 10, 2, nil)
	waited, ok := m.Settle(250*time.Millisecond, 30*time.Second)
	if !ok || waited < 1250*time.Millisecond || waited > 1500*time.Millisecond {
		t.Fatalf("settled %v after %v", ok, waited)
	}
	h2 := newHost(2)
	h2.foreignPerSec = 2
	m2 := New(h2, h2, h2.clk, h2.advance, 10, 2, nil)
	if waited, ok := m2.Settle(250*time.Millisecond, 2*time.Second); ok || waited != 2*time.Second {
		t.Fatalf("never quiet: %v %v", waited, ok)
	}
}
