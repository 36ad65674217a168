package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// runTool runs a tool in-process and returns its exit code and streams.
func runTool(tool string, args ...string) (code int, stdout, stderr string) {
	var out, errs bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }}
	code = Run(tool, append([]string{tool}, args...), env)
	return code, out.String(), errs.String()
}

// Each refusal is a usage error before anything runs: exit 2, one error
// line (and a hint), nothing on stdout.
func TestCPUTimerRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"gotest", []string{"--timer", "cpu", "--gotest", "--", "a.test:BenchmarkX", "b.test:BenchmarkX"}, "--timer cpu with --gotest"},
		{"shared worker", []string{"--timer", "cpu", "--worker", "--case", "a", "--case", "b", "--", "./w"}, `cases "a" and "b" share one worker process`},
		{"unknown timer", []string{"--timer", "user", "--", "true", "true"}, `--timer "user": use auto, wall or cpu`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runTool("fb-pair", tc.args...)
			if code != ExitUsage || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Fatalf("exit %d, stderr %q, stdout %q; want exit 2 with %q and no stream", code, stderr, stdout, tc.want)
			}
			if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines > 2 {
				t.Errorf("%d lines of error, want one and an optional hint:\n%s", lines, stderr)
			}
		})
	}
}

func TestCPUTimerRecordPerMode(t *testing.T) {
	for _, tc := range []struct {
		mode, source string
		resolution   float64
	}{
		{"exec", rusageSource, 1000},
		{"batch", rusageSource, 1000},
		{"worker", workerCPUSource, 1},
	} {
		got := cpuTimer(tc.mode, nil)
		if got.Kind != ndjson.TimerCPU || got.Source != tc.source || got.ResolutionNS != tc.resolution || got.Note == "" {
			t.Errorf("%s: timer %+v, want kind cpu from %q at %g ns with a note", tc.mode, got, tc.source, tc.resolution)
		}
	}
	reported := &ndjson.Timer{Kind: ndjson.TimerSelf, Axis: "elapsed_ns"}
	if got := cpuTimer("worker", reported); !strings.HasSuffix(got.Note, "; the cases' own elapsed_ns is not used") {
		t.Errorf("note %q must say the cases' own timer is not used", got.Note)
	}
}

// --timer cpu and --timer wall replace what the cases report; a primary
// custom axis stays as an ordinary axis.
func TestForcedTimerReplacesReportedOne(t *testing.T) {
	decls := []custom.Descriptor{{Name: "ticks", Primary: true}}
	reported := &ndjson.Timer{Kind: ndjson.TimerSelf, Axis: "ticks"}
	for _, tc := range []struct{ choice, kind, note string }{
		{timerAuto, ndjson.TimerSelf, ""},
		{timerWall, ndjson.TimerWall, "--timer wall: start-up; the cases' own ticks is not used"},
		{timerCPU, ndjson.TimerCPU, "; the cases' own ticks is not used"},
	} {
		m := &measurement{measureRequest: &measureRequest{mode: "batch", timing: tc.choice}}
		m.setTimer(reported, decls, "start-up")
		if m.timer.Kind != tc.kind || !strings.HasSuffix(m.timer.Note, tc.note) || (tc.choice == timerWall && !strings.HasPrefix(m.timer.Note, tc.note)) {
			t.Errorf("--timer %s: timer %+v, want kind %s with a note ending %q", tc.choice, m.timer, tc.kind, tc.note)
		}
		if primary := m.customs[0].Primary; primary != (tc.choice == timerAuto) {
			t.Errorf("--timer %s: custom axis primary=%v", tc.choice, primary)
		}
	}
	if !decls[0].Primary {
		t.Error("the declarations themselves must not change")
	}
	m := &measurement{measureRequest: &measureRequest{mode: "batch", timing: timerAuto}}
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
	return cpuMeter{cpu: next(&f.cpu), children: next(&f.children)}
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
	var ce *childrenError
	if !errors.As(err, &ce) || ce.ticks != 2 || !strings.Contains(err.Error(), "pid 42") {
		t.Fatalf("around = %v, want a childrenError for 2 ticks of pid 42", err)
	}
	if _, ok := cpuRefusal(&collect.FailedError{Case: "w", Err: err}); !ok {
		t.Error("a worker's reaped children must be a CPU-timer refusal")
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

func TestCPURefusalRecognizesEscapes(t *testing.T) {
	escaped := &collect.FailedError{Case: "c", Err: &runner.EscapeError{Argv: []string{"sh"}, Run: 1, Batch: 1}}
	if hint, ok := cpuRefusal(escaped); !ok || !strings.Contains(hint, "--timer wall") {
		t.Errorf("escape: %q, %v; want a refusal naming --timer wall", hint, ok)
	}
	if _, ok := cpuRefusal(fmt.Errorf("other: %w", errors.New("x"))); ok {
		t.Error("an unrelated error is not a CPU-timer refusal")
	}
}

func TestCPUOfUsageSumsUserAndSystem(t *testing.T) {
	if got := cpuOf(runner.Usage{UserNS: 3_000, SystemNS: 2_000, Runs: 2}); got != 5_000 {
		t.Errorf("cpuOf = %d, want user+system 5000", got)
	}
}

// A first, untimed batch or request that shows work the CPU timer cannot
// see is a usage error; any other failure is a failed command.
func TestFirstRunError(t *testing.T) {
	escaped := &runner.EscapeError{Argv: []string{"sh"}, Run: 1, Batch: 1}
	for _, tc := range []struct {
		err  error
		code int
	}{
		{escaped, ExitUsage},
		{&childrenError{argv: []string{"./w"}, pid: 7, ticks: 1}, ExitUsage},
		{errors.New("exit status 3"), ExitCommandFailed},
	} {
		err := firstRunError("case", "first batch", tc.err)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != tc.code || !strings.HasPrefix(err.Error(), "case: first batch: ") {
			t.Errorf("firstRunError(%v) = %v, want exit %d", tc.err, err, tc.code)
		}
	}
}
