package conditions

import (
	"slices"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/collect"
)

// A Monitor is what the collection engine watches conditions through.
var _ collect.Conditions = (*Monitor)(nil)

// pausing returns a pause monitor over a scripted profile sequence, the first
// reading being Start's.
func pausing(fallback Fallback, clock *fakeClock, readings ...ProfileReading) (*Monitor, *scripted) {
	s := &scripted{readings: readings}
	p := mustPolicy(Pause(fallback, DefaultLimits, DefaultPauseTiming))
	m := NewMonitor(p, Detectors{Platform: s, Throttle: noThrottle{}}, clock, clock.Sleep)
	m.Start()
	return m, s
}

func repeat(r ProfileReading, n int) []ProfileReading {
	return slices.Repeat([]ProfileReading{r}, n)
}

// The wait ends once polls have been acceptable for Stable, counted from the
// first acceptable poll; a relapse starts the count again.
func TestWaitStableInterval(t *testing.T) {
	bad, good := platform("quiet"), platform("balanced")
	seq := append([]ProfileReading{bad, bad, good, good, bad}, repeat(good, 6)...)
	clock := &fakeClock{}
	m, s := pausing(FallbackFail, clock, seq...)
	waited, ok := m.Wait()
	// Polls at 100..1000 ms: good at 200 and 300, bad at 400, good from 500;
	// stable at 1000.
	if !ok || waited != time.Second {
		t.Fatalf("got %v, %v; want 1s, recovered", waited, ok)
	}
	if s.calls != 11 || len(clock.slept) != 10 || clock.slept[0] != 100*time.Millisecond {
		t.Fatalf("%d readings, sleeps %v", s.calls, clock.slept)
	}
	if sum := m.Summary(); sum.Windows != 0 || sum.FinalProfile != ProfileBalanced || sum.ProfileChanges != 3 {
		t.Fatalf("polls are observations but not windows: %+v", sum)
	}
}

func TestWaitBudgetExpires(t *testing.T) {
	for _, fb := range []Fallback{FallbackObserve, FallbackFail} {
		clock := &fakeClock{}
		m, _ := pausing(fb, clock, platform("low-power"))
		waited, ok := m.WaitAcceptable(clock, clock.Sleep, 1250*time.Millisecond)
		if ok || waited != 1250*time.Millisecond || clock.slept[len(clock.slept)-1] != 50*time.Millisecond {
			t.Fatalf("%v: got %v, %v, sleeps %v; want the 1.25s budget spent, the last sleep cut short", fb, waited, ok, clock.slept)
		}
		// What the engine does next.
		if m.Expired() != fb.String() {
			t.Fatalf("%v: Expired() = %q", fb, m.Expired())
		}
		m.RecordPause(waited, !ok, m.Expired())
		if m.Response() != fb.String() {
			t.Fatalf("%v: after expiry Response() = %q, want %q", fb, m.Response(), fb)
		}
		s := m.Summary()
		if !s.BudgetExpired || s.FallbackUsed != fb.String() || s.Pauses != 1 || s.PausedNS != int64(1250*time.Millisecond) {
			t.Fatalf("%v: summary %+v", fb, s)
		}
	}
}

// Wait spends only what the run has left, and a remainder shorter than
// Stable gives up without sleeping.
func TestWaitRunBudget(t *testing.T) {
	clock := &fakeClock{}
	m, _ := pausing(FallbackObserve, clock, platform("cool"))
	m.RecordPause(29700*time.Millisecond, false, "")
	if m.Remaining() != 300*time.Millisecond {
		t.Fatalf("remaining %v", m.Remaining())
	}
	if waited, ok := m.Wait(); ok || waited != 0 || len(clock.slept) != 0 {
		t.Fatalf("got %v, %v after sleeps %v; want an immediate expiry", waited, ok, clock.slept)
	}
	if m.Response() != "pause" {
		t.Fatalf("expiry is the engine's to record: Response() = %q", m.Response())
	}
}

func TestWaitOnlyWhenPausing(t *testing.T) {
	clock := &fakeClock{}
	m := NewMonitor(mustPolicy(Observe(DefaultLimits)), Detectors{}, clock, clock.Sleep)
	if waited, ok := m.Wait(); ok || waited != 0 || m.Expired() != "" || m.Response() != "observe" {
		t.Fatalf("observe policy waited: %v %v %q %q", waited, ok, m.Expired(), m.Response())
	}
}
