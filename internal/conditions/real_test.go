package conditions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealMachine checks that a host without platform_profile, a system bus
// or thermal_throttle counters (such as a VM) reports each condition as
// unavailable, with a reason, and never as clean. It skips on hosts that
// have any of them.
func TestRealMachine(t *testing.T) {
	present, _ := filepath.Glob("/sys/devices/system/cpu/cpu*/thermal_throttle")
	for _, f := range []string{"/" + platformProfilePath, "/" + systemBusSocket} {
		if _, err := os.Stat(f); err == nil {
			present = append(present, f)
		}
	}
	if len(present) > 0 {
		t.Skipf("this host has condition sources (%s)", strings.Join(present, ", "))
	}
	m := NewMonitor(mustPolicy(Observe(DefaultLimits)), System(), nil, nil)
	c := m.Start()
	if c.ProfileDetector != Unavailable || c.Profile != ProfileUnknown || c.Degradation != DegradationUnknown ||
		c.ThrottleDetector != Unavailable || c.ThrottleEvents != nil || c.ThrottleMS != nil {
		t.Errorf("start record %+v, want every condition unavailable", c)
	}
	gaps := m.Last().Unavailable()
	for i, want := range []string{"no system bus", "platform_profile", "*_throttle_count", "*_throttle_total_time_ms"} {
		if len(gaps) != 3 || !strings.Contains(strings.Join(gaps, "\n"), want) {
			t.Errorf("reasons %q: missing %q (#%d)", gaps, want, i)
		}
	}
	s := m.Summary()
	if s.ProfileAvailability != Unavailable || s.DegradationAvail != Unavailable || s.ThrottleAvailability != Unavailable {
		t.Errorf("summary %+v, want every availability unavailable", s)
	}
	for _, g := range gaps {
		t.Log(g)
	}

	strict := DefaultLimits
	strict.RequireProfileDetection, strict.RequireThermalDetection = true, true
	m = NewMonitor(mustPolicy(Fail(strict)), System(), nil, nil)
	if c, ok := m.Check(); ok || !strings.Contains(c.Why, "no profile detected") || !strings.Contains(c.Why, "no thermal signal") {
		t.Errorf("strict check %+v, want unacceptable for want of both", c)
	}
}
