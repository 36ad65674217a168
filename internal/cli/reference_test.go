package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/flybench/flybench/internal/runner"
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
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != ExitUsage || !strings.Contains(err.Error(), here) || !strings.Contains(err.Error(), "PATH") {
		t.Fatalf("missing everywhere: %v; want exit 2 naming %q and PATH", err, here)
	}
}

func TestReferenceCommands(t *testing.T) {
	r := &reference{kind: "mem", program: "/opt/fb bin/fb-refwork"}
	for _, tc := range []struct {
		mode   string
		report bool
		want   string
	}{
		{"exec", false, "'/opt/fb bin/fb-refwork' mem"},
		{"batch", false, "'/opt/fb bin/fb-refwork' --iterations {n} mem"},
		{"batch", true, "'/opt/fb bin/fb-refwork' --iterations {n} --report mem"},
	} {
		if got := r.commandFor(tc.mode, tc.report); got != tc.want {
			t.Errorf("%s report=%v: %q, want %q", tc.mode, tc.report, got, tc.want)
		}
	}
	if got := r.name(); got != "reference-workload (mem)" {
		t.Errorf("name %q", got)
	}
	user := &reference{command: "./calibrate --fixed"}
	if user.commandFor("batch", true) != "./calibrate --fixed" || user.name() != "./calibrate --fixed" {
		t.Errorf("a user's command is run and named as given: %q, %q", user.commandFor("batch", true), user.name())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRefworkSpeaksTheBatchConvention(t *testing.T) {
	help := refworkHelp(t)
	for _, name := range []string{"$" + runner.EnvN, runner.EnvReportFD} {
		if !strings.Contains(help, name) {
			t.Fatalf("fb-refwork --help does not name %s: the batch convention changed", name)
		}
	}
	dir := t.TempDir()
	report := filepath.Join(dir, "report")
	f, err := os.Create(report)
	must(t, err)
	defer f.Close()
	var stderr strings.Builder
	// fb-refwork closes its report descriptor when it is done, as a
	// process of its own would: give it a duplicate, so that the test's
	// own descriptor is not closed twice (a number the runtime may have
	// reused by then).
	getenv := func(k string) string {
		if k == runner.EnvReportFD {
			fd, err := syscall.Dup(int(f.Fd()))
			must(t, err)
			return strconv.Itoa(fd)
		}
		return ""
	}
	code := Run("fb-refwork", []string{"fb-refwork", "--iterations", "2", "--report", "int"}, Env{Stdout: io.Discard, Stderr: &stderr, Getenv: getenv})
	data, _ := os.ReadFile(report)
	if code != ExitOK || !regexp.MustCompile(`^done 2 elapsed_ns=[0-9]+\n$`).Match(data) {
		t.Fatalf("exit %d, report %q, stderr %q", code, data, stderr.String())
	}
	stderr.Reset()
	if code := Run("fb-refwork", []string{"fb-refwork", "float"}, Env{Stdout: io.Discard, Stderr: &stderr, Getenv: getenv}); code != ExitUsage ||
		stderr.String() != "fb-refwork: error: no reference workload \"float\": use int or mem\n" {
		t.Fatalf("unknown workload: exit %d, stderr %q", code, stderr.String())
	}
}

func refworkHelp(t *testing.T) string {
	t.Helper()
	var out strings.Builder
	if code := Run("fb-refwork", []string{"fb-refwork", "--help"}, Env{Stdout: &out, Stderr: io.Discard, Getenv: func(string) string { return "" }}); code != ExitOK {
		t.Fatalf("--help exited %d", code)
	}
	return out.String()
}
