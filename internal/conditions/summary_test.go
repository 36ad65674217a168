package conditions

import (
	"reflect"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestSummaryAccumulates(t *testing.T) {
	root := throttleFS([2]int{5, 7}, true)
	s := &scripted{readings: []ProfileReading{
		ppd("balanced", ""), ppd("performance", ""), ppd("performance", "high-operating-temperature"),
		ppd("performance", ""), ppd("power-saver", ""),
	}}
	m := NewMonitor(mustPolicy(Observe(DefaultLimits)), Detectors{PPD: s, Throttle: ThrottleCounters{Root: root}}, nil, nil)
	m.Start()
	check := func(units int, recollected bool) {
		_, ok := m.Check()
		m.Record(units, ok, recollected)
	}
	check(10, false) // performance
	setPackage(root, 0, 8)
	check(10, false) // degraded, 3 new events
	check(10, true)  // performance again
	check(4, false)  // power-saver
	m.RecordPause(2*time.Second, false, "")

	want := &ndjson.EnvironmentConditions{
		Checked: true, Mode: "observe",
		ProfileAvailability: Available, ProfileDetector: DetectorPPD,
		InitialProfile: ProfileBalanced, FinalProfile: ProfileReduced, ProfileChanges: 2,
		DegradationAvail: Available, WorstDegradation: DegradationHighTemperature,
		ThrottleAvailability: Available, ThrottleEvents: ptr(3), ThrottleMS: ptr(0),
		Windows: 4, AffectedUnits: 14, RecollectedUnits: 10,
		Pauses: 1, PausedNS: int64(2 * time.Second),
	}
	if got := m.Summary(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

// A profile detector that stops answering leaves the profile unavailable for
// the run, though it keeps its name and what it saw first.
func TestSummaryProfileGap(t *testing.T) {
	s := &scripted{readings: []ProfileReading{ppd("balanced", ""), unavailableProfile("power-profiles-daemon: no answer within 200ms")}}
	m := NewMonitor(mustPolicy(Observe(DefaultLimits)), Detectors{PPD: s}, nil, nil)
	m.Start()
	if c, ok := m.Check(); !ok || c.ProfileDetector != Unavailable || c.Profile != ProfileUnknown {
		t.Fatalf("got %+v", c)
	}
	got := m.Summary()
	if got.ProfileAvailability != Unavailable || got.DegradationAvail != Unavailable || got.ProfileDetector != DetectorPPD ||
		got.InitialProfile != ProfileBalanced || got.FinalProfile != ProfileUnknown || got.WorstDegradation != DegradationNone {
		t.Fatalf("got %+v", got)
	}
}

func TestSummaryNothingDetected(t *testing.T) {
	m := NewMonitor(mustPolicy(Fail(DefaultLimits)), Detectors{}, nil, nil)
	c, ok := m.Check()
	if !ok || c.ProfileDetector != Unavailable || c.ThrottleDetector != Unavailable || c.ThrottleEvents != nil {
		t.Fatalf("got %+v, %v", c, ok)
	}
	want := &ndjson.EnvironmentConditions{
		Checked: true, Mode: "fail",
		ProfileAvailability: Unavailable, ProfileDetector: Unavailable,
		InitialProfile: ProfileUnknown, FinalProfile: ProfileUnknown,
		DegradationAvail: Unavailable, WorstDegradation: DegradationUnknown,
		ThrottleAvailability: Unavailable, Windows: 1,
	}
	if got := m.Summary(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestSummaryDisabled(t *testing.T) {
	s := &scripted{readings: []ProfileReading{ppd("power-saver", "")}}
	m := NewMonitor(Policy{}, Detectors{PPD: s}, nil, nil)
	if _, ok := m.Check(); !ok || s.calls != 0 {
		t.Fatalf("a disabled policy probed (%d calls) or refused", s.calls)
	}
	want := &ndjson.EnvironmentConditions{
		Mode: "disabled", ProfileAvailability: NotChecked, ProfileDetector: DetectorNone,
		InitialProfile: ProfileUnknown, FinalProfile: ProfileUnknown,
		DegradationAvail: NotChecked, WorstDegradation: DegradationUnknown, ThrottleAvailability: NotChecked,
	}
	if got := m.Summary(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}
