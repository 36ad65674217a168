package measure

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/pkg/stats"
)

// pairRequest is a valid request of fb-pair's shape for the commands.
func pairRequest(commands ...string) Request {
	cfg := collect.DefaultConfig
	cfg.Watch, cfg.Invocations = collect.DefaultWatch, 1
	cfg.Until = collect.Until{MaxTime: time.Minute, Confidence: 95, ThresholdPct: 1, Estimator: stats.EstimatorRobust}
	return Request{Config: cfg, Tool: "fb-pair", Least: 2, Most: collect.MaxCases, Mode: ModeExec,
		Commands: commands, Timer: TimerAuto, Placement: Placement{CPU: -1}}
}

func ptr[T any](v T) *T { return &v }

// Every refusal of a request is a field error naming the field at fault,
// worded with the paths of the fields it names (a front end spells them
// its own way).
func TestRequestRefusals(t *testing.T) {
	for _, tc := range []struct {
		edit  func(*Request)
		field string
		want  string
	}{
		{func(r *Request) { r.Commands = nil }, "Commands", "no command given: fb-pair takes 2 to 16"},
		{func(r *Request) { r.Commands = r.Commands[:1] }, "Commands", "1 commands given: fb-pair takes 2 to 16"},
		{func(r *Request) { r.Cases = []string{"x"} }, "Cases", "Cases needs Mode=worker"},
		{func(r *Request) { r.Mode, r.Command.Shell = ModeGotest, true }, "Mode=gotest", "Mode=gotest runs test binaries directly: drop Command.Shell and Command.IgnoreFailure"},
		{func(r *Request) { r.Reference = ptr(" ") }, "Reference", "Reference is empty"},
		{func(r *Request) { r.Mode, r.Reference = ModeWorker, ptr("int") }, "Reference", "Reference cannot be used with Mode=worker"},
		{func(r *Request) { r.AA = ptr(0) }, "AA", "AA 0 out of range: use 1 to 1000 runs"},
		{func(r *Request) { r.AA = ptr(3) }, "AA", "AA with 2 commands"},
		{func(r *Request) { r.Timer = "user" }, "Timer", `Timer "user": use auto, wall or cpu`},
		{func(r *Request) { r.Mode, r.Timer = ModeGotest, TimerCPU }, "Timer", "Timer cpu with Mode=gotest"},
		{func(r *Request) { r.Invocations = 2 }, "Invocations", "Invocations 2: exec mode already starts a fresh process per operation; use Mode=worker, Mode=gotest or Mode=batch"},
		{func(r *Request) { r.Rotate, r.KeepPageCache = 5, true }, "Rotate", "Rotate 5 with KeepPageCache keep: every batch starts its own process and the programs' files stay cached as found"},
		{func(r *Request) { r.Mode, r.Rotate, r.Invocations = ModeBatch, 5, 2 }, "Rotate", "Rotate 5 with Invocations 2: the blocks start afresh already"},
		{func(r *Request) { r.Mode, r.Rotate, r.Sequential = ModeWorker, 5, true }, "Rotate", "Rotate 5 with Sequential"},
		{func(r *Request) { r.Mode, r.Layout = ModeWorker, ptr(true) }, "Layout", "Layout with Mode=worker: a worker's environment is fixed"},
		{func(r *Request) { r.Resume = &Resume{Retry: true} }, "Resume.Retry", "Resume.Retry needs Resume.Path FILE"},
		{func(r *Request) { r.Resume = &Resume{Path: "a.ndjson"} }, "Resume.Path", `Resume.Path "a.ndjson" needs Invocations K`},
		{func(r *Request) { r.Until.Estimator = "legacy" }, "Until.Estimator", `Until.Estimator "legacy": use robust or mean`},
		{func(r *Request) { r.Until.ThresholdPct = 100 }, "Until.ThresholdPct", "Until.ThresholdPct 100 out of range"},
		{func(r *Request) { r.Names = []string{"a", "a"} }, "Names", `Names "a": names must be non-empty and distinct`},
		{func(r *Request) { r.Names = []string{"a", "b", "c"} }, "Names", "3 Names values for 2 commands"},
		{func(r *Request) { r.Samples = 5 }, "Samples", "Samples 5 out of range"},
		{func(r *Request) { r.Until.Rule, r.Sequential = "width", true }, "Until.Rule", "Until.Rule cannot be combined with Sequential"},
		{func(r *Request) {
			r.Mode, r.Timer, r.Cases = ModeWorker, TimerCPU, []string{"a", "b"}
			r.Commands = r.Commands[:1]
		}, "Timer",
			`Timer cpu: cases "a" and "b" share one worker process`},
		{func(r *Request) { r.WorkUnits = []float64{1, 2, 3} }, "WorkUnits", "3 WorkUnits values for 2 cases"},
		{func(r *Request) { r.WorkUnits = []float64{-1} }, "WorkUnits", "WorkUnits -1: want a positive number"},
		{func(r *Request) { r.Hooks.Prepare = []string{"x", "y", "z"} }, "Hooks.Prepare", "3 Hooks.Prepare values for 2 commands: give one for all, or exactly one per command"},
		{func(r *Request) {
			r.Scan = &Scan{Params: []ScanParam{{Range: true, Text: "t=1..3"}}, Step: "1"}
			r.Commands = []string{"spin {u}"}
		}, "Commands",
			`the command "spin {u}" does not use {t}`},
		{func(r *Request) {
			r.Mode, r.Scan = ModeBatch, &Scan{Params: []ScanParam{{Text: "n=1,2"}}}
			r.Commands = []string{"spin {n}"}
		}, "Scan",
			"parameter n: {n} is the iteration count in Mode=batch mode"},
	} {
		r := pairRequest("a", "b")
		tc.edit(&r)
		err := r.Validate()
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v (field %+v), want a %s error", tc.want, err, fe, tc.field)
		}
	}
}

func TestRequestSettlesWhatTheModeLeavesOpen(t *testing.T) {
	r := pairRequest("a", "b")
	r.Rotate, r.Names = collect.AutoRotation, []string{"old"}
	p, err := r.resolve()
	if err != nil {
		t.Fatal(err)
	}
	// Exec mode keeps the automatic rule where it drops the programs'
	// files (on Linux; the run then rotates when the sides start different
	// files), and leaves it where the files stay as found.
	wantRotate := 0
	if platform.Linux(platform.GOOS) {
		wantRotate = collect.AutoRotation
	}
	if p.Rotate != wantRotate || !p.RandomizeLayout || !reflect.DeepEqual(p.caseNames, []string{"old", "b"}) {
		t.Errorf("exec: rotate %d, layout %v, names %q", p.Rotate, p.RandomizeLayout, p.caseNames)
	}
	r.KeepPageCache = true
	if p, err = r.resolve(); err != nil {
		t.Fatal(err)
	} else if p.Rotate != 0 {
		t.Errorf("exec, page cache kept: rotate %d", p.Rotate)
	}
	r.KeepPageCache = false
	r.Rotate = 7 // drops the programs' files every 7 units (on Linux)
	if p, err = r.resolve(); platform.Linux(platform.GOOS) && (err != nil || p.Rotate != 7) {
		t.Errorf("exec, rotate 7: %v", err)
	}
	r.Rotate = collect.AutoRotation
	r = pairRequest("./w")
	r.Mode, r.Cases, r.Rotate, r.AA = ModeWorker, []string{"k"}, collect.AutoRotation, ptr(2)
	if p, err = r.resolve(); err != nil {
		t.Fatal(err)
	}
	if p.Rotate != collect.AutoRotation || p.RandomizeLayout || !reflect.DeepEqual(p.caseNames, []string{"./w", "./w (2)"}) {
		t.Errorf("worker A/A: rotate %d, layout %v, names %q", p.Rotate, p.RandomizeLayout, p.caseNames)
	}
}

// TestStdio: null is /dev/null, showing the output implies inheriting
// it and conflicts with another output, a missing input is refused
// naming it, and worker and gotest modes refuse both.
func TestStdio(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in")
	must(t, os.WriteFile(in, []byte("x\n"), 0o644))
	for _, tc := range []struct {
		mode  Mode
		stdio Stdio
		show  bool
		want  Stdio
		err   string
	}{
		{stdio: Stdio{}},
		{stdio: Stdio{Input: "null", Output: "null"}},
		{stdio: Stdio{Input: in, Output: "pipe"}, want: Stdio{Input: in, Output: "pipe"}},
		{show: true, want: Stdio{Output: "inherit"}},
		{stdio: Stdio{Output: "inherit"}, show: true, want: Stdio{Output: "inherit"}},
		{stdio: Stdio{Output: "out.txt"}, show: true, err: "Command.ShowOutput sends stdout"},
		{stdio: Stdio{Input: in + ".missing"}, err: `Stdio.Input "` + in + `.missing": no such file`},
		{stdio: Stdio{Input: filepath.Dir(in)}, err: "not a readable file"},
		{mode: ModeWorker, stdio: Stdio{Output: "pipe"}, err: "Mode=worker uses the commands' stdin and stdout"},
		{mode: ModeGotest, stdio: Stdio{Input: in}, err: "Mode=gotest uses"},
		{mode: ModeWorker, show: true},
	} {
		r := pairRequest("a", "b")
		r.Mode, r.Stdio, r.Command.ShowOutput = cmpOr(tc.mode, ModeExec), tc.stdio, tc.show
		p, err := r.resolve()
		if tc.err != "" {
			var fe *field.Error
			if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %+v: %v, want a field error with %q", r.Mode, tc.stdio, err, tc.err)
			}
			continue
		}
		if err != nil || p.Stdio != tc.want {
			t.Errorf("%s %+v: %+v, %v; want %+v", r.Mode, tc.stdio, p, err, tc.want)
		}
	}
}

func cmpOr(m, def Mode) Mode {
	if m == "" {
		return def
	}
	return m
}

// TestHookCounts: a hook given once is for every command; given once per
// command, the i-th is the i-th command's. Commas stay inside a hook.
func TestHookCounts(t *testing.T) {
	r := pairRequest("a", "b")
	r.Hooks = Hooks{Prepare: []string{"x", "y"}, Cleanup: []string{"echo a,b"}}
	p, err := r.resolve()
	if err != nil || !reflect.DeepEqual(p.hooks.prepare, hookSet{each: []string{"x", "y"}}) || !reflect.DeepEqual(p.hooks.cleanup, hookSet{all: "echo a,b"}) {
		t.Fatalf("%+v, %v", p.hooks, err)
	}
}

// TestOutputFileOnResume: an output file starts afresh, but a resumed
// collection adds to what the interrupted one wrote.
func TestOutputFileOnResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	for _, resume := range []bool{false, true} {
		must(t, os.WriteFile(path, []byte("before\n"), 0o644))
		req := Request{Stdio: Stdio{Output: path}}
		if resume {
			req.Resume = &Resume{}
		}
		m := &measurement{plan: &plan{Request: req}, env: Env{Stdout: io.Discard}}
		f, err := m.stdoutFile()
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("after\n")
		f.Close()
		got, _ := os.ReadFile(path)
		want := "after\n"
		if resume {
			want = "before\nafter\n"
		}
		if string(got) != want {
			t.Errorf("resume %v: %q, want %q", resume, got, want)
		}
	}
}
