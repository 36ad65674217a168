package conditions

import (
	"strings"
	"testing"
	"time"
)

func TestPolicyConstructors(t *testing.T) {
	var zero Policy
	if zero.Mode() != ModeDisabled {
		t.Errorf("zero policy: mode %v, want disabled", zero.Mode())
	}
	p := mustPolicy(Observe(DefaultLimits))
	if p.Mode() != ModeObserve || p.Window() != 50*time.Millisecond || !p.Limits().RequireNonreducedProfile || p.OnTimeout() != 0 {
		t.Errorf("observe: got %+v", p)
	}
	if p := mustPolicy(Fail(DefaultLimits)); p.Mode() != ModeFail {
		t.Errorf("fail: got %+v", p)
	}
	p = mustPolicy(Pause(FallbackFail, DefaultLimits, DefaultPauseTiming))
	if p.Mode() != ModePause || p.OnTimeout() != FallbackFail || p.Rewarm() != 50*time.Millisecond || p.PauseTiming().MaxPause != 30*time.Second {
		t.Errorf("pause: got %+v", p)
	}
}

func TestPolicyRefusals(t *testing.T) {
	limits := func(f func(*Limits)) Limits { l := DefaultLimits; f(&l); return l }
	timing := func(f func(*PauseTiming)) PauseTiming { p := DefaultPauseTiming; f(&p); return p }
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"pause without fallback", second(Pause(0, DefaultLimits, DefaultPauseTiming)), "explicit fallback"},
		{"zero limits", second(Observe(Limits{})), "maximum thermal state unknown"},
		{"no window", second(Fail(limits(func(l *Limits) { l.Window = 0 }))), "window 0s must be positive"},
		{"budget under stable", second(Pause(FallbackObserve, DefaultLimits, timing(func(p *PauseTiming) { p.MaxPause = 100 * time.Millisecond }))), "no pause could ever resume"},
		{"poll over stable", second(Pause(FallbackObserve, DefaultLimits, timing(func(p *PauseTiming) { p.Poll = time.Second }))), "two readings"},
		{"negative rewarm", second(Pause(FallbackObserve, DefaultLimits, timing(func(p *PauseTiming) { p.Rewarm = -1 }))), "rewarm time -1ns is negative"},
		{"zero poll", second(Pause(FallbackObserve, DefaultLimits, timing(func(p *PauseTiming) { p.Poll = 0 }))), "must be positive"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, tc.err, tc.want)
		}
	}
	if err := DefaultPauseTiming.Validate(); err != nil {
		t.Errorf("default pause timing: %v", err)
	}
	if err := (PauseTiming{Stable: 1, Poll: 1, MaxPause: 1}).Validate(); err != nil {
		t.Errorf("zero rewarm: %v", err)
	}
}

func second(_ Policy, err error) error { return err }

func TestParse(t *testing.T) {
	for _, m := range []Mode{ModeDisabled, ModeObserve, ModePause, ModeFail} {
		if got, err := ParseMode(m.String()); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m, got, err)
		}
	}
	for _, f := range []Fallback{FallbackObserve, FallbackFail} {
		if got, err := ParseFallback(f.String()); err != nil || got != f {
			t.Errorf("ParseFallback(%q) = %v, %v", f, got, err)
		}
	}
	for _, s := range []ThermalState{ThermalNominal, ThermalFair, ThermalSerious, ThermalCritical} {
		if got, err := ParseThermalState(s.String()); err != nil || got != s {
			t.Errorf("ParseThermalState(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseThermalState("unknown"); err == nil {
		t.Error("unknown accepted as a threshold")
	}
	if _, err := ParseMode("retake"); err == nil {
		t.Error("retake accepted as a mode")
	}
	if _, err := ParseFallback(""); err == nil {
		t.Error("empty fallback accepted")
	}
}
