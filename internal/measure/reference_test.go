package measure

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/field"
)

func TestFinderLooksBesideTheToolThenInPath(t *testing.T) {
	here, elsewhere := t.TempDir(), t.TempDir()
	inPath := filepath.Join(elsewhere, refworkTool)
	f := finder{
		executable: func() (string, error) { return filepath.Join(here, "fb-pair"), nil },
		lookPath:   func(string) (string, error) { return inPath, nil },
	}
	if got, err := f.find(); err != nil || got != inPath {
		t.Fatalf("nothing beside the tool: %q, %v; want PATH's %q", got, err, inPath)
	}
	beside := filepath.Join(here, refworkTool)
	must(t, os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755))
	if got, err := f.find(); err != nil || got != beside {
		t.Fatalf("beside the tool: %q, %v; want %q", got, err, beside)
	}
	must(t, os.Chmod(beside, 0o644)) // not executable: passed over
	f.lookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	_, err := f.find()
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Field != "Reference" || !strings.Contains(err.Error(), here) || !strings.Contains(err.Error(), "PATH") || fe.Hint() == "" {
		t.Fatalf("missing everywhere: %v; want a Reference error naming %q and PATH, with a hint", err, here)
	}
}

func TestReferenceCommands(t *testing.T) {
	r := &reference{kind: "mem", program: "/opt/fb bin/fb-refwork"}
	for _, tc := range []struct {
		mode   Mode
		report bool
		want   string
	}{
		{ModeExec, false, "'/opt/fb bin/fb-refwork' mem"},
		{ModeBatch, false, "'/opt/fb bin/fb-refwork' --iterations {n} mem"},
		{ModeBatch, true, "'/opt/fb bin/fb-refwork' --iterations {n} --report mem"},
	} {
		if got := r.commandFor(tc.mode, tc.report); got != tc.want {
			t.Errorf("%s report=%v: %q, want %q", tc.mode, tc.report, got, tc.want)
		}
	}
	if got := r.name(); got != "reference-workload (mem)" {
		t.Errorf("name %q", got)
	}
	user := &reference{command: "./calibrate --fixed"}
	if user.commandFor(ModeBatch, true) != "./calibrate --fixed" || user.name() != "./calibrate --fixed" {
		t.Errorf("a user's command is run and named as given: %q, %q", user.commandFor(ModeBatch, true), user.name())
	}
}

// Off Linux, worker mode and the watch are refused naming the status and
// the platform; everything else, and everything on Linux, goes ahead.
func TestPlatformRefusals(t *testing.T) {
	for _, tc := range []struct {
		mode        Mode
		watch, goos string
		want        string
	}{
		{ModeWorker, "", "darwin", "Mode=worker: unsupported_platform: worker mode (waitid WNOWAIT, process CPU-time clocks, /proc/PID counters) exists only on Linux (GOOS=darwin); use Mode=batch, which runs here"},
		{ModeExec, "retake", "freebsd", "Watch.Response retake: unsupported_platform: /proc/stat exists only on Linux (GOOS=freebsd)"},
		{ModeWorker, "observe", "linux", ""},
		{ModeExec, "", "darwin", ""},
		{ModeBatch, "", "freebsd", ""},
		{ModeGotest, "", "darwin", ""},
	} {
		err := platformRefusal(tc.mode, tc.watch, tc.goos)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: refused: %v", tc, err)
			}
			continue
		}
		var fe *field.Error
		if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a field error starting %q", tc, err, tc.want)
		}
	}
}
