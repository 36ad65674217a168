package conditions

import (
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	none := unavailableProfile("platform_profile: absent")
	counters := func(events, millis int64) (CounterReading, CounterReading) {
		return CounterReading{Available: true, Total: 100, Increase: events},
			CounterReading{Available: true, Total: 1000, Increase: millis}
	}
	quietE, quietM := counters(0, 0)
	hotE, _ := counters(3, 0)
	_, hotM := counters(0, 40)
	gone := CounterReading{Reason: "no counters"}
	with := func(f func(*Limits)) Limits { l := DefaultLimits; f(&l); return l }

	for _, tc := range []struct {
		name   string
		limits Limits
		obs    Observation
		why    string // "" means acceptable
	}{
		{"balanced, nothing else known", DefaultLimits, Observation{platform("balanced"), gone, gone}, ""},
		{"reduced", DefaultLimits, Observation{platform("low-power"), gone, gone}, `reduced profile "low-power" from platform_profile`},
		{"reduced allowed", with(func(l *Limits) { l.RequireNonreducedProfile = false }), Observation{ppd("power-saver", ""), gone, gone}, ""},
		{"no profile, not required", DefaultLimits, Observation{none, quietE, quietM}, ""},
		{"no profile, required", with(func(l *Limits) { l.RequireProfileDetection = true }), Observation{none, quietE, quietM}, "no profile detected (platform_profile: absent)"},
		{"unrecognized, required", with(func(l *Limits) { l.RequireProfileDetection = true }), Observation{platform("custom"), quietE, quietM}, `unrecognized profile "custom"`},
		{"unrecognized, not required", DefaultLimits, Observation{platform("custom"), quietE, quietM}, ""},
		{"new throttle events", DefaultLimits, Observation{platform("balanced"), hotE, quietM}, "thermal throttling: 3 new events"},
		{"new throttle time", DefaultLimits, Observation{platform("balanced"), quietE, hotM}, "thermal throttling: 40 ms more"},
		{"throttling under serious", with(func(l *Limits) { l.MaxThermalState = ThermalSerious }), Observation{platform("balanced"), hotE, hotM}, ""},
		{"degraded", DefaultLimits, Observation{ppd("performance", "lap-detected"), gone, gone}, "performance degraded: lap_detected"},
		{"degraded under critical", with(func(l *Limits) { l.MaxThermalState = ThermalCritical }), Observation{ppd("performance", "lap-detected"), gone, gone}, ""},
		{"no thermal signal, not required", DefaultLimits, Observation{platform("balanced"), gone, gone}, ""},
		{"no thermal signal, required", with(func(l *Limits) { l.RequireThermalDetection = true }), Observation{platform("balanced"), gone, gone}, "no thermal signal (throttle events: no counters; throttle time: no counters; degradation: only power-profiles-daemon reports it)"},
		{"counters only, required", with(func(l *Limits) { l.RequireThermalDetection = true }), Observation{platform("balanced"), quietE, gone}, ""},
		{"degradation only, required", with(func(l *Limits) { l.RequireThermalDetection = true }), Observation{ppd("balanced", ""), gone, gone}, ""},
		{"nominal, unconfirmable, required", with(func(l *Limits) { l.RequireThermalDetection, l.MaxThermalState = true, ThermalNominal }), Observation{platform("balanced"), quietE, quietM}, "nominal thermal state cannot be confirmed"},
		{"nominal, unconfirmable, not required", with(func(l *Limits) { l.MaxThermalState = ThermalNominal }), Observation{platform("balanced"), quietE, quietM}, ""},
		{"both", DefaultLimits, Observation{ppd("power-saver", "high-operating-temperature"), hotE, quietM}, `reduced profile "power-saver" from power_profiles_daemon; thermal throttling: 3 new events; performance degraded: high_operating_temperature`},
	} {
		why := strings.Join(tc.limits.Judge(tc.obs), "; ")
		if (why == "") != (tc.why == "") || !strings.Contains(why, tc.why) {
			t.Errorf("%s: got %q, want %q", tc.name, why, tc.why)
		}
	}
}
