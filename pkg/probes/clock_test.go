package probes

import (
	"testing"
	"time"
)

type namedClock interface {
	Clock
	Backend() string
	Resolution() (float64, error)
}

func TestRealClocks(t *testing.T) {
	for _, c := range []namedClock{SampleClock{}, Monotonic{}} {
		t.Run(c.Backend(), func(t *testing.T) {
			res, err := c.Resolution()
			if err != nil || res <= 0 {
				t.Fatalf("Resolution() = %v, %v; want > 0", res, err)
			}
			prev := c.Now()
			for range 100000 {
				now := c.Now()
				if now < prev {
					t.Fatalf("clock went backwards: %d after %d", now, prev)
				}
				prev = now
			}
			start := c.Now()
			time.Sleep(5 * time.Millisecond)
			if d := c.Now() - start; d < 4e6 || d > 5e9 {
				t.Errorf("5 ms sleep measured as %d ns", d)
			}
			got := Characterize(c, c.Backend(), res, 1000)
			t.Logf("%+v", got)
			if got.ReadMedianNS <= 0 || got.ObservedStepNS <= 0 {
				t.Errorf("implausible characterization %+v", got)
			}
		})
	}
}

var sink int64

func BenchmarkMonotonic(b *testing.B) {
	var c Monotonic
	for b.Loop() {
		sink += c.Now()
	}
}

// tickClock advances by step every third read, like a clock coarser than
// its own read cost.
type tickClock struct{ reads, step int64 }

func (c *tickClock) Now() int64 { c.reads++; return c.reads / 3 * c.step }

func TestObservedResolution(t *testing.T) {
	if got, err := observedResolution(&tickClock{step: 42}, 1000); err != nil || got != 42 {
		t.Fatalf("observedResolution = %v, %v; want 42", got, err)
	}
	if _, err := observedResolution(&tickClock{step: 0}, 1000); err == nil {
		t.Fatal("a clock that never advances must be an error, not a resolution")
	}
}
