package measure

import (
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

func TestCPUTimerRecordPerMode(t *testing.T) {
	for _, tc := range []struct {
		mode       Mode
		source     string
		resolution float64
	}{
		{ModeExec, rusageSource, 1000},
		{ModeBatch, rusageSource, 1000},
		{ModeWorker, workerCPUSource, 1},
	} {
		got := cpuTimer(tc.mode, nil)
		if got.Kind != ndjson.TimerCPU || got.Source != tc.source || got.ResolutionNS != tc.resolution || got.Note == "" {
			t.Errorf("%s: timer %+v, want kind cpu from %q at %g ns with a note", tc.mode, got, tc.source, tc.resolution)
		}
	}
	reported := &ndjson.Timer{Kind: ndjson.TimerSelf, Axis: "elapsed_ns"}
	if got := cpuTimer(ModeWorker, reported); !strings.HasSuffix(got.Note, "; the cases' own elapsed_ns is not used") {
		t.Errorf("note %q must say the cases' own timer is not used", got.Note)
	}
}

// The CPU and wall timers replace what the cases report; a primary
// custom axis stays as an ordinary axis. The wall timer's note names
// the timer as the user asked for it.
func TestForcedTimerReplacesReportedOne(t *testing.T) {
	decls := []custom.Descriptor{{Name: "ticks", Primary: true}}
	reported := &ndjson.Timer{Kind: ndjson.TimerSelf, Axis: "ticks"}
	for _, tc := range []struct {
		choice Timer
		kind   ndjson.TimerKind
		note   string
	}{
		{TimerAuto, ndjson.TimerSelf, ""},
		{TimerWall, ndjson.TimerWall, "<Timer> wall: start-up; the cases' own ticks is not used"},
		{TimerCPU, ndjson.TimerCPU, "; the cases' own ticks is not used"},
	} {
		m := &measurement{plan: &plan{Request: Request{Mode: ModeBatch, Timer: tc.choice}}, env: Env{Names: angled}}
		m.setTimer(reported, decls, "start-up")
		if m.timer.Kind != tc.kind || !strings.HasSuffix(m.timer.Note, tc.note) || (tc.choice == TimerWall && !strings.HasPrefix(m.timer.Note, tc.note)) {
			t.Errorf("timer %s: timer %+v, want kind %s with a note ending %q", tc.choice, m.timer, tc.kind, tc.note)
		}
		if primary := m.customs[0].Primary; primary != (tc.choice == TimerAuto) {
			t.Errorf("timer %s: custom axis primary=%v", tc.choice, primary)
		}
	}
	if !decls[0].Primary {
		t.Error("the declarations themselves must not change")
	}
	m := &measurement{plan: &plan{Request: Request{Mode: ModeBatch, Timer: TimerAuto}}}
	if m.setTimer(nil, nil, "start-up"); m.timer.Note != "batch mode without a self-reported time: start-up" {
		t.Errorf("a batch without a timer of its own: note %q", m.timer.Note)
	}
}

// fakeMeter replays CPU-clock and reaped-children readings.
type fakeMeter struct {
	cpu, children []int64
	err           error
}

func (f *fakeMeter) meter() cpuMeter {
	next := func(v *[]int64) func(int) (int64, error) {
		return func(int) (int64, error) {
			if f.err != nil {
				return 0, f.err
			}
			x := (*v)[0]
			*v = (*v)[1:]
			return x, nil
		}
	}
	return cpuMeter{cpu: next(&f.cpu), children: next(&f.children), names: angled}
}

func TestWorkerMeterReadsCPUAroundTheRequest(t *testing.T) {
	f := &fakeMeter{cpu: []int64{1_000, 1_250}, children: []int64{7, 7}}
	wall, cpu, err := f.meter().around(42, []string{"./w"}, func() (int64, error) { return 900, nil })
	if err != nil || wall != 900 || cpu != 250 {
		t.Fatalf("around = %d, %d, %v; want the request's 900 ns wall and 250 ns of CPU", wall, cpu, err)
	}
}

func TestWorkerMeterRefusesReapedChildren(t *testing.T) {
	f := &fakeMeter{cpu: []int64{1_000, 1_250}, children: []int64{7, 9}}
	_, _, err := f.meter().around(42, []string{"./w"}, func() (int64, error) { return 900, nil })
	var ce *ChildrenError
	if !errors.As(err, &ce) || ce.Ticks != 2 || !strings.Contains(err.Error(), "pid 42") || !strings.HasPrefix(err.Error(), "<Timer> cpu: worker") {
		t.Fatalf("around = %v, want a ChildrenError for 2 ticks of pid 42", err)
	}
}

func TestWorkerMeterPassesErrorsOn(t *testing.T) {
	boom := errors.New("boom")
	f := &fakeMeter{cpu: []int64{1}, children: []int64{1}}
	if _, _, err := f.meter().around(1, nil, func() (int64, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("a failed request: %v, want it passed on", err)
	}
	f = &fakeMeter{err: boom}
	if _, _, err := f.meter().around(1, nil, func() (int64, error) { return 1, nil }); !errors.Is(err, boom) {
		t.Errorf("a failed reading: %v, want it passed on", err)
	}
}

func TestCPUOfUsageSumsUserAndSystem(t *testing.T) {
	if got := cpuOf(runner.Usage{UserNS: 3_000, SystemNS: 2_000, Runs: 2}); got != 5_000 {
		t.Errorf("cpuOf = %d, want user+system 5000", got)
	}
}

// A first, untimed batch or request that fails is a command error, with
// what the CPU timer could not see still inside it.
func TestFirstRunError(t *testing.T) {
	escaped := &runner.EscapeError{Argv: []string{"sh"}, Run: 1, Batch: 1}
	err := firstRunError("case", "first batch", escaped)
	var ce *CommandError
	var ee *runner.EscapeError
	if !errors.As(err, &ce) || !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "case: first batch: ") {
		t.Errorf("firstRunError = %v", err)
	}
}
