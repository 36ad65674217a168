package conditions

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"
)

// fakePPD answers like power-profiles-daemon, or blocks, or fails.
type fakePPD struct {
	active, degraded string
	err              error
	block            chan struct{} // when set, wait here, ignoring ctx
	calls            atomic.Int32
}

func (f *fakePPD) ReadPPD(ctx context.Context) (string, string, error) {
	f.calls.Add(1)
	if f.block != nil {
		<-f.block
		return "", "", errors.New("too late")
	}
	return f.active, f.degraded, f.err
}

var withBus = fstest.MapFS{systemBusSocket: &fstest.MapFile{Mode: fs.ModeSocket}}

func TestPPDPowerSaverDegraded(t *testing.T) {
	p := &PowerProfiles{Root: withBus, Client: &fakePPD{active: "power-saver", degraded: "high-operating-temperature"}}
	r := p.Profile()
	want := ProfileReading{
		Available: true, Detector: DetectorPPD, Profile: ProfileReduced,
		Raw: "power-saver", Degradation: DegradationHighTemperature,
	}
	if r != want {
		t.Fatalf("got %+v, want %+v", r, want)
	}
}

func TestPPDMapping(t *testing.T) {
	for active, want := range map[string]string{
		"power-saver": ProfileReduced, "balanced": ProfileBalanced,
		"performance": ProfilePerformance, "turbo": ProfileUnknown, "": ProfileUnknown,
	} {
		if got := ppdClass(active); got != want {
			t.Errorf("ActiveProfile %q: got %s, want %s", active, got, want)
		}
	}
	for degraded, want := range map[string]string{
		"": DegradationNone, "high-operating-temperature": DegradationHighTemperature,
		"lap-detected": DegradationLapDetected, "something-new": DegradationOther,
		"lap-detected,high-operating-temperature": DegradationHighTemperature,
	} {
		if got := ppdDegradation(degraded); got != want {
			t.Errorf("PerformanceDegraded %q: got %s, want %s", degraded, got, want)
		}
	}
}

func TestPPDNoBus(t *testing.T) {
	for name, root := range map[string]fstest.MapFS{
		"absent":     {"run/dbus/containers": dir},
		"not socket": {systemBusSocket: file("")},
	} {
		client := &fakePPD{active: "balanced"}
		r := (&PowerProfiles{Root: root, Client: client}).Profile()
		if r.Available || r.Detector != Unavailable || !strings.Contains(r.Reason, "no system bus") {
			t.Errorf("%s: got %+v, want unavailable for want of a bus", name, r)
		}
		if client.calls.Load() != 0 {
			t.Errorf("%s: the client was asked without a bus", name)
		}
	}
}

func TestPPDNoClient(t *testing.T) {
	r := (&PowerProfiles{Root: withBus}).Profile()
	if r.Available || !strings.Contains(r.Reason, "no D-Bus client") {
		t.Fatalf("got %+v, want unavailable without a client", r)
	}
}

// A daemon that does not answer in time is unavailable, and is not asked
// again: one stalled bus must not cost a timeout at every window.
func TestPPDTimeoutLatches(t *testing.T) {
	client := &fakePPD{block: make(chan struct{})}
	defer close(client.block)
	p := &PowerProfiles{Root: withBus, Client: client, Timeout: 20 * time.Millisecond}
	began := time.Now()
	r := p.Profile()
	if took := time.Since(began); took > time.Second {
		t.Fatalf("read took %v despite a 20ms timeout", took)
	}
	if r.Available || !strings.Contains(r.Reason, "no answer within 20ms") {
		t.Fatalf("got %+v, want unavailable after the timeout", r)
	}
	if r2 := p.Profile(); r2.Available || r2.Reason != r.Reason {
		t.Fatalf("second read: got %+v", r2)
	}
	if n := client.calls.Load(); n > 1 {
		t.Fatalf("client asked %d times, want at most once", n)
	}
}

func TestPPDContextDeadlineIsTimeout(t *testing.T) {
	client := &fakePPD{err: context.DeadlineExceeded}
	p := &PowerProfiles{Root: withBus, Client: client}
	if r := p.Profile(); r.Available || !strings.Contains(r.Reason, "no answer") {
		t.Fatalf("got %+v", r)
	}
}

// Other errors are unavailable for that reading only.
func TestPPDErrorDoesNotLatch(t *testing.T) {
	client := &fakePPD{err: errors.New("not running on the system bus")}
	p := &PowerProfiles{Root: withBus, Client: client}
	if r := p.Profile(); r.Available || !strings.Contains(r.Reason, "not running") {
		t.Fatalf("got %+v", r)
	}
	client.err, client.active = nil, "balanced"
	if r := p.Profile(); !r.Available || r.Profile != ProfileBalanced {
		t.Fatalf("after recovery: got %+v", r)
	}
}

func TestMonitorPrefersPPD(t *testing.T) {
	root := fstest.MapFS{platformProfilePath: file("low-power"), systemBusSocket: &fstest.MapFile{Mode: fs.ModeSocket}}
	d := Linux(root, &fakePPD{active: "performance"})
	c := NewMonitor(mustPolicy(Observe(DefaultLimits)), d, nil, nil).Start()
	if c.ProfileDetector != DetectorPPD || c.Profile != ProfilePerformance || c.Degradation != DegradationNone {
		t.Fatalf("with both: got %+v, want power-profiles-daemon's answer", c)
	}
	d = Linux(fstest.MapFS{platformProfilePath: file("low-power")}, &fakePPD{active: "performance"})
	c = NewMonitor(mustPolicy(Observe(DefaultLimits)), d, nil, nil).Start()
	if c.ProfileDetector != DetectorPlatformProfile || c.Profile != ProfileReduced || c.Degradation != DegradationUnknown || c.Acceptable {
		t.Fatalf("without a bus: got %+v, want platform_profile's reduced answer, unacceptable", c)
	}
}
