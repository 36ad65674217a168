package conditions

import (
	"strings"
	"testing"
)

// On a platform without the Linux sources every condition is unavailable,
// each reason naming unsupported_platform, the source and the platform:
// never a clean host, and unacceptable when detection is required.
func TestUnsupportedPlatformDetectors(t *testing.T) {
	m := NewMonitor(mustPolicy(Observe(DefaultLimits)), Unsupported("darwin"), nil, nil)
	c := m.Start()
	if c.ProfileDetector != Unavailable || c.Profile != ProfileUnknown || c.Degradation != DegradationUnknown ||
		c.ThrottleDetector != Unavailable || c.ThrottleEvents != nil || c.ThrottleMS != nil {
		t.Errorf("start record %+v, want every condition unavailable", c)
	}
	gaps := m.Last().Unavailable()
	if len(gaps) != 3 {
		t.Fatalf("reasons %q, want profile, throttle events and throttle time", gaps)
	}
	for _, want := range []string{"power-profiles-daemon exists only on Linux", "platform_profile exists only on Linux", "thermal_throttle exists only on Linux"} {
		if !strings.Contains(strings.Join(gaps, "\n"), want) {
			t.Errorf("reasons %q lack %q", gaps, want)
		}
	}
	for _, g := range gaps {
		if !strings.Contains(g, "unsupported_platform: ") || !strings.Contains(g, "(GOOS=darwin)") {
			t.Errorf("reason %q does not name the status and the platform", g)
		}
	}
	m.Check()
	if s := m.Summary(); s.ProfileAvailability != Unavailable || s.ThrottleAvailability != Unavailable {
		t.Errorf("summary %+v, want unavailable", s)
	}

	strict := DefaultLimits
	strict.RequireProfileDetection, strict.RequireThermalDetection = true, true
	m = NewMonitor(mustPolicy(Fail(strict)), Unsupported("freebsd"), nil, nil)
	if c, ok := m.Check(); ok || !strings.Contains(c.Why, "no profile detected") || !strings.Contains(c.Why, "no thermal signal") {
		t.Errorf("strict check %+v, want unacceptable for want of both", c)
	}
}
