package conditions

import (
	"strings"
	"testing"
	"testing/fstest"
)

// Two packages of four CPUs: core counters sum over all eight CPUs, package
// counters count each package once.
func TestThrottleSumsCoresAndPackagesOnce(t *testing.T) {
	s := ThrottleCounters{Root: throttleFS([2]int{5, 7}, true)}.Throttle()
	if got, want := sum(s.Events), int64(36+5+7); got != want {
		t.Errorf("events: got %d, want %d (%v)", got, want, s.Events)
	}
	if got, want := sum(s.Millis), int64(360+100+200); got != want {
		t.Errorf("millis: got %d, want %d (%v)", got, want, s.Millis)
	}
	if len(s.Events) != 10 || s.Events["package 1"] != 7 || s.Events["cpu7 core"] != 8 {
		t.Errorf("objects: got %v, want 8 cores and 2 packages", s.Events)
	}
}

func TestThrottleWithoutTimeCounters(t *testing.T) {
	m := NewMonitor(mustPolicy(Observe(DefaultLimits)), Detectors{Throttle: ThrottleCounters{Root: throttleFS([2]int{5, 7}, false)}}, nil, nil)
	c := m.Start()
	if c.ThrottleDetector != DetectorThermalThrottle || c.ThrottleEvents == nil || *c.ThrottleEvents != 48 || c.ThrottleMS != nil {
		t.Fatalf("got %+v, want events 48 and no time", c)
	}
	o := m.Last()
	if !o.Events.Available || o.Millis.Available || !strings.Contains(o.Millis.Reason, "no *_throttle_total_time_ms counters") {
		t.Fatalf("got %+v, want time unavailable with a reason", o)
	}
}

// A package id that cannot be read leaves that CPU's package counter
// counted on its own: an overstatement, never a hidden event.
func TestThrottleUnknownPackage(t *testing.T) {
	root := throttleFS([2]int{5, 7}, false)
	delete(root, "sys/devices/system/cpu/cpu5/topology/physical_package_id")
	s := ThrottleCounters{Root: root}.Throttle()
	if s.Events["cpu5 package"] != 7 || sum(s.Events) != 36+5+7+7 {
		t.Fatalf("got %v", s.Events)
	}
}

func TestThrottleNoCounters(t *testing.T) {
	root := fstest.MapFS{"sys/devices/system/cpu/cpu0/topology/physical_package_id": file("0")}
	s := ThrottleCounters{Root: root}.Throttle()
	if len(s.Events) != 0 || len(s.Millis) != 0 {
		t.Fatalf("got %+v, want nothing", s)
	}
}

func TestThrottleIncreaseBetweenChecks(t *testing.T) {
	root := throttleFS([2]int{5, 7}, true)
	m := NewMonitor(mustPolicy(Observe(DefaultLimits)), Detectors{Throttle: ThrottleCounters{Root: root}}, nil, nil)
	m.Start()
	if c, ok := m.Check(); !ok || *c.ThrottleEvents != 48 {
		t.Fatalf("quiet window: got %+v", c)
	}
	setPackage(root, 1, 9)
	c, ok := m.Check()
	if ok || *c.ThrottleEvents != 50 || !strings.Contains(c.Why, "2 new events") {
		t.Fatalf("throttled window: got %+v, want unacceptable with 2 new events", c)
	}
	if c, ok := m.Check(); !ok || *c.ThrottleEvents != 50 {
		t.Fatalf("next quiet window: got %+v", c)
	}
}

func TestThrottleContinuityLost(t *testing.T) {
	for name, breakIt := range map[string]func(fstest.MapFS){
		"backwards": func(m fstest.MapFS) { setPackage(m, 0, 1) },
		"vanished": func(m fstest.MapFS) {
			delete(m, "sys/devices/system/cpu/cpu2/thermal_throttle/core_throttle_count")
		},
	} {
		root := throttleFS([2]int{5, 7}, true)
		m := NewMonitor(mustPolicy(Observe(DefaultLimits)), Detectors{Throttle: ThrottleCounters{Root: root}}, nil, nil)
		m.Start()
		breakIt(root)
		c, _ := m.Check()
		if c.ThrottleEvents != nil || c.ThrottleMS == nil {
			t.Errorf("%s: got %+v, want events lost and time kept", name, c)
		}
		setPackage(root, 0, 50)
		m.Check() // counters recover, but continuity does not
		if r := m.Last().Events; r.Available || !strings.Contains(r.Reason, "of cpu2 core disappeared") && !strings.Contains(r.Reason, "went backwards (5 to 1)") {
			t.Errorf("%s: got %+v, want unavailable for the rest of the run", name, r)
		}
		if s := m.Summary(); s.ThrottleAvailability != Unavailable || s.ThrottleEvents != nil {
			t.Errorf("%s: summary %+v, want throttle unavailable with no count", name, s)
		}
	}
}
