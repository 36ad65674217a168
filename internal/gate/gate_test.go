package gate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/hostload"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// fakeClock moves only when slept on.
type fakeClock struct{ now time.Duration }

func (c *fakeClock) Now() time.Time { return time.Unix(0, 0).Add(c.now) }
func (c *fakeClock) Sleep(d time.Duration) {
	if d > 0 {
		c.now += d
	}
}

const tick = hostload.TickNS * time.Nanosecond

// host scripts /proc/stat: each reading renders counters advanced tick by
// tick up to the clock's time, a CPU's tick busy when busy says so.
type host struct {
	clock *fakeClock
	cpus  int
	busy  func(at time.Duration, cpu int) bool
	// online, when set, says whether a CPU has a line at a reading.
	online     func(at time.Duration, cpu int) bool
	at         time.Duration
	user, idle []int64
	reads      int
}

func newHost(cpus int, busy func(time.Duration, int) bool) *host {
	return &host{clock: &fakeClock{}, cpus: cpus, busy: busy, user: make([]int64, cpus), idle: make([]int64, cpus)}
}

func (h *host) Read() (hostload.Snapshot, error) {
	h.reads++
	for ; h.at+tick <= h.clock.now; h.at += tick {
		for cpu := 0; cpu < h.cpus; cpu++ {
			if h.busy(h.at, cpu) {
				h.user[cpu]++
			} else {
				h.idle[cpu]++
			}
		}
	}
	return hostload.Read(strings.NewReader(h.text()))
}

// text renders the counters as /proc/stat does, interrupt line included.
func (h *host) text() string {
	var b strings.Builder
	var user, idle int64
	for cpu := range h.cpus {
		user, idle = user+h.user[cpu], idle+h.idle[cpu]
	}
	fmt.Fprintf(&b, "cpu  %d 0 0 %d 0 0 0 0 0 0\n", user, idle)
	for cpu := range h.cpus {
		if h.online == nil || h.online(h.clock.now, cpu) {
			fmt.Fprintf(&b, "cpu%d %d 0 0 %d 0 0 0 0 0 0\n", cpu, h.user[cpu], h.idle[cpu])
		}
	}
	b.WriteString("intr 12345 0 0\nctxt 1\n")
	return b.String()
}

func (h *host) wait(t *testing.T, p Policy) (ndjson.Gate, []Status) {
	t.Helper()
	var seen []Status
	g, err := Wait(p, h, h.clock, func(s Status) { seen = append(seen, s) })
	if err != nil {
		t.Fatal(err)
	}
	return g, seen
}

func idle(time.Duration, int) bool { return false }

func TestIdleHostPassesAfterStable(t *testing.T) {
	h := newHost(2, idle)
	g, seen := h.wait(t, DefaultPolicy)
	want := ndjson.Gate{
		Outcome: ndjson.GatePassed, WaitedNS: int64(time.Second), StableNS: int64(time.Second),
		TimeoutNS: int64(15 * time.Second), PollNS: int64(100 * time.Millisecond),
		MaxAveragePct: 20, MaxCorePct: 50, Polls: 10, BusiestCPU: 0, CPUs: 2,
	}
	if g != want {
		t.Fatalf("record\n%+v, want\n%+v", g, want)
	}
	if h.reads != 11 || len(seen) != 10 {
		t.Fatalf("%d reads, %d statuses", h.reads, len(seen))
	}
	for i, s := range seen {
		if !s.Quiet || s.Stable != time.Duration(i+1)*100*time.Millisecond || s.Polls != i+1 {
			t.Fatalf("status %d: %+v", i, s)
		}
	}
}

// One saturated CPU of two: 50% average, 100% on cpu1. Both limits break.
func TestBusyCoreOfTwoBlocks(t *testing.T) {
	h := newHost(2, func(_ time.Duration, cpu int) bool { return cpu == 1 })
	g, _ := h.wait(t, DefaultPolicy)
	if g.Outcome != ndjson.GateTimeout || g.LastAveragePct != 50 || g.LastCorePct != 100 || g.BusiestCPU != 1 {
		t.Fatalf("%+v", g)
	}
	if g.WaitedNS != int64(15*time.Second) || g.Polls != 150 {
		t.Fatalf("waited %v in %d polls", time.Duration(g.WaitedNS), g.Polls)
	}
}

// One saturated CPU of sixteen averages 6.25%, within the average limit:
// only the per-CPU limit sees it.
func TestBusyCoreAmongSixteenBlocksOnTheCoreLimit(t *testing.T) {
	busy := func(_ time.Duration, cpu int) bool { return cpu == 9 }
	g, _ := newHost(16, busy).wait(t, DefaultPolicy)
	if g.Outcome != ndjson.GateTimeout || g.LastAveragePct != 6.25 || g.LastCorePct != 100 || g.BusiestCPU != 9 || g.CPUs != 16 {
		t.Fatalf("%+v", g)
	}
	averageOnly := DefaultPolicy
	averageOnly.MaxCorePct = 100
	if g, _ := newHost(16, busy).wait(t, averageOnly); g.Outcome != ndjson.GatePassed {
		t.Fatalf("the average limit alone should pass: %+v", g)
	}
}

// A 100 ms spike every 700 ms during the first 3 s: every spike restarts
// the stable interval, so the gate passes 1 s after the last one ends.
func TestSpikesRestartTheStableInterval(t *testing.T) {
	spiky := func(at time.Duration, cpu int) bool {
		return cpu == 0 && at < 3*time.Second && at%(700*time.Millisecond) >= 600*time.Millisecond
	}
	h := newHost(2, spiky)
	g, seen := h.wait(t, DefaultPolicy)
	// Spikes cover 0.6-0.7, 1.3-1.4, 2.0-2.1 and 2.7-2.8 s.
	if g.Outcome != ndjson.GatePassed || g.WaitedNS != int64(3800*time.Millisecond) {
		t.Fatalf("%+v", g)
	}
	resets := 0
	for _, s := range seen {
		if !s.Quiet {
			resets++
			if s.Stable != 0 || s.Util.BusiestCPU != 0 || s.Util.BusiestPct != 100 {
				t.Fatalf("%+v", s)
			}
		}
	}
	if resets != 4 {
		t.Fatalf("%d resets, want 4", resets)
	}
}

// A load exactly at both limits passes; one just over does not.
func TestLimitsAreInclusive(t *testing.T) {
	half := func(at time.Duration, cpu int) bool {
		return cpu == 0 && at%(100*time.Millisecond) < 50*time.Millisecond
	}
	p := DefaultPolicy
	p.MaxAveragePct = 25
	if g, _ := newHost(2, half).wait(t, p); g.Outcome != ndjson.GatePassed || g.LastCorePct != 50 || g.LastAveragePct != 25 {
		t.Fatalf("%+v", g)
	}
	p.MaxCorePct = 49.9
	p.Timeout = 2 * time.Second
	if g, _ := newHost(2, half).wait(t, p); g.Outcome != ndjson.GateTimeout {
		t.Fatalf("%+v", g)
	}
}

func TestTimeoutNotAMultipleOfThePollStillSamplesAtTheEnd(t *testing.T) {
	p := Policy{MaxAveragePct: 20, MaxCorePct: 50, Stable: time.Second, Poll: 400 * time.Millisecond, Timeout: time.Second}
	h := newHost(2, idle)
	g, seen := h.wait(t, p)
	if g.Outcome != ndjson.GatePassed || g.WaitedNS != int64(time.Second) || len(seen) != 3 {
		t.Fatalf("%+v after %d polls", g, len(seen))
	}
	if seen[2].Elapsed != time.Second {
		t.Fatalf("last poll at %v", seen[2].Elapsed)
	}
}

// Polls shorter than a tick often see no counter move; they are not
// judged, and the next poll covers their time.
func TestPollsWithinOneTickAreNotJudged(t *testing.T) {
	p := DefaultPolicy
	p.Poll = 4 * time.Millisecond
	h := newHost(2, idle)
	g, _ := h.wait(t, p)
	if g.Outcome != ndjson.GatePassed || g.WaitedNS != int64(time.Second) {
		t.Fatalf("%+v", g)
	}
	if g.Polls != 100 || h.reads != 251 {
		t.Fatalf("%d judged polls of %d reads", g.Polls, h.reads-1)
	}
}

// A CPU coming online breaks the stable interval: that poll cannot vouch
// for it.
func TestHotplugRestartsTheStableInterval(t *testing.T) {
	h := newHost(4, idle)
	h.online = func(at time.Duration, cpu int) bool { return cpu < 2 || at >= 500*time.Millisecond }
	g, seen := h.wait(t, DefaultPolicy)
	if g.Outcome != ndjson.GatePassed || g.WaitedNS != int64(1500*time.Millisecond) || g.CPUs != 4 {
		t.Fatalf("%+v", g)
	}
	s := seen[4]
	if s.Quiet || len(s.Util.Skipped) != 2 || s.Util.Skipped[0] != (hostload.Skip{CPU: 2, Reason: hostload.Appeared}) {
		t.Fatalf("%+v", s)
	}
}

func TestReadErrorsStopTheGate(t *testing.T) {
	boom := errors.New("boom")
	n := 0
	r := hostload.ReaderFunc(func() (hostload.Snapshot, error) {
		if n++; n > 3 {
			return hostload.Snapshot{}, boom
		}
		return newHost(1, idle).Read()
	})
	if _, err := Wait(DefaultPolicy, r, &fakeClock{}, nil); !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
}

func TestValidate(t *testing.T) {
	if err := DefaultPolicy.Validate(); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(*Policy)) Policy {
		p := DefaultPolicy
		f(&p)
		return p
	}
	for _, tc := range []struct {
		p    Policy
		want string
	}{
		{edit(func(p *Policy) { p.MaxAveragePct = -1 }), "gate.MaxAveragePct -1: use 0 to 100 (percent)"},
		{edit(func(p *Policy) { p.MaxCorePct = 100.5 }), "gate.MaxCorePct 100.5: use 0 to 100"},
		{edit(func(p *Policy) { p.Stable = 0 }), "gate.Stable 0s must be positive"},
		{edit(func(p *Policy) { p.Poll = -time.Second }), "gate.Poll -1s must be positive"},
		{edit(func(p *Policy) { p.Timeout = 0 }), "gate.Timeout 0s must be positive"},
		{edit(func(p *Policy) { p.Timeout = 500 * time.Millisecond }),
			"gate.Timeout 500ms is shorter than gate.Stable 1s: a timeout shorter than the stable time can never be satisfied"},
		{edit(func(p *Policy) { p.Poll = 20 * time.Second }),
			"gate.Poll 20s is slower than gate.Timeout 15s: a poll slower than the timeout would let the gate expire unsampled"},
	} {
		err := tc.p.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.p, err, tc.want)
		}
	}
	// Equal timeout and stable time can be met, by a host quiet from the start.
	if err := edit(func(p *Policy) { p.Timeout = p.Stable }).Validate(); err != nil {
		t.Fatal(err)
	}
}

// The real counters and clock: with limits nothing can break, the gate
// passes after about the stable time.
func TestRealHost(t *testing.T) {
	p := Policy{MaxAveragePct: 100, MaxCorePct: 100, Stable: 50 * time.Millisecond, Poll: 20 * time.Millisecond, Timeout: 5 * time.Second}
	start := time.Now()
	g, err := Wait(p, hostload.ProcStat{}, probes.SystemWaiter{}, nil)
	if err != nil {
		t.Skip(err)
	}
	if g.Outcome != ndjson.GatePassed || g.CPUs < 1 || time.Since(start) < p.Stable {
		t.Fatalf("%+v", g)
	}
}
