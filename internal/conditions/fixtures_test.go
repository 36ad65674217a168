package conditions

import (
	"fmt"
	"io/fs"
	"testing/fstest"
	"time"
)

// fakeClock is a Clock whose sleep advances it.
type fakeClock struct {
	now   int64
	slept []time.Duration
}

func (c *fakeClock) Now() int64 { return c.now }

func (c *fakeClock) Sleep(d time.Duration) {
	c.slept = append(c.slept, d)
	c.now += int64(d)
}

// scripted is a ProfileDetector that plays back readings, repeating the last.
type scripted struct {
	readings []ProfileReading
	calls    int
}

func (s *scripted) Profile() ProfileReading {
	r := s.readings[min(s.calls, len(s.readings)-1)]
	s.calls++
	return r
}

// ppd is an available power-profiles-daemon reading.
func ppd(active, degraded string) ProfileReading {
	return ProfileReading{
		Available: true, Detector: DetectorPPD,
		Profile: ppdClass(active), Raw: active, Degradation: ppdDegradation(degraded),
	}
}

// platform is an available platform_profile reading.
func platform(raw string) ProfileReading {
	return ProfileReading{
		Available: true, Detector: DetectorPlatformProfile,
		Profile: platformClass(raw), Raw: raw, Degradation: DegradationUnknown,
	}
}

// noThrottle is a ThrottleDetector with no counters.
type noThrottle struct{}

func (noThrottle) Throttle() ThrottleSnapshot { return ThrottleSnapshot{} }

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s + "\n")} }

var dir = &fstest.MapFile{Mode: fs.ModeDir | 0o755}

// throttleFS lays out 2 packages x 4 CPUs: cpu0-3 in package 0, cpu4-7 in
// package 1. CPU n's core counters are n+1 events and 10(n+1) ms; package
// P's are pkg[P] events and 100(P+1) ms, repeated in each of its CPUs. The
// time files exist only when withTime is set.
func throttleFS(pkg [2]int, withTime bool) fstest.MapFS {
	m := fstest.MapFS{"sys/devices/system/cpu/cpufreq": dir, "sys/devices/system/cpu/online": file("0-7")}
	for n := range 8 {
		p := n / 4
		base := fmt.Sprintf("sys/devices/system/cpu/cpu%d/", n)
		m[base+"topology/physical_package_id"] = file(fmt.Sprint(p))
		m[base+"thermal_throttle/core_throttle_count"] = file(fmt.Sprint(n + 1))
		m[base+"thermal_throttle/package_throttle_count"] = file(fmt.Sprint(pkg[p]))
		if withTime {
			m[base+"thermal_throttle/core_throttle_total_time_ms"] = file(fmt.Sprint(10 * (n + 1)))
			m[base+"thermal_throttle/package_throttle_total_time_ms"] = file(fmt.Sprint(100 * (p + 1)))
		}
	}
	return m
}

// setPackage rewrites package p's event count in every one of its CPUs.
func setPackage(m fstest.MapFS, p, count int) {
	for n := 4 * p; n < 4*p+4; n++ {
		m[fmt.Sprintf("sys/devices/system/cpu/cpu%d/thermal_throttle/package_throttle_count", n)] = file(fmt.Sprint(count))
	}
}

func mustPolicy(p Policy, err error) Policy {
	if err != nil {
		panic(err)
	}
	return p
}
