package runner

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/flybench/flybench/pkg/probes"
	"golang.org/x/sys/unix"
)

var clk = probes.SampleClock{}

func newCommand(t *testing.T, opts Options) *Command {
	t.Helper()
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c
}

func sh(script string) []string { return []string{"/bin/sh", "-c", script} }

// assertNoChildren fails if this process has any child, running or zombie.
func assertNoChildren(t *testing.T) {
	t.Helper()
	var ws unix.WaitStatus
	if pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil); err != unix.ECHILD {
		t.Errorf("wait4(-1, WNOHANG) = %d, %v; want ECHILD (a child was left behind)", pid, err)
	}
}

func TestRunTrue(t *testing.T) {
	c := newCommand(t, Options{Argv: []string{"true"}})
	ns, err := c.Run(5, clk)
	if err != nil || ns <= 0 {
		t.Fatalf("Run(5) = %d, %v; want positive time", ns, err)
	}
	if u := c.Usage(); u.Runs != 5 || u.MaxRSSKiB <= 0 {
		t.Errorf("Usage() = %+v, want 5 runs and a resident set", u)
	}
	t.Logf("true: %.0f µs/run", float64(ns)/5e3)
	assertNoChildren(t)
}

func TestRunExitError(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("echo first >&2; echo boom >&2; exit 3")})
	_, err := c.Run(4, clk)
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("Run = %v, want *ExitError", err)
	}
	if ee.ExitCode() != 3 || ee.Run != 1 || ee.Batch != 4 || ee.Stderr() != "first\nboom\n" {
		t.Errorf("ExitError = %+v, stderr %q", ee, ee.Stderr())
	}
	want := `command "echo first >&2; echo boom >&2; exit 3" exited with status 3 (run 1 of 4): boom`
	if err.Error() != want {
		t.Errorf("Error() =\n %s\nwant\n %s", err, want)
	}
	assertNoChildren(t)
}

// TestRunLaterFailure fails on the third run, after longer stderr from the
// earlier ones, which must not show up in the failed run's capture.
func TestRunLaterFailure(t *testing.T) {
	script := `n=$(cat count 2>/dev/null || echo 0); n=$((n+1)); echo $n > count
if [ $n -lt 3 ]; then for i in $(seq 200); do echo "noise $i" >&2; done; exit 0; fi
echo "fail $n" >&2; exit 4`
	c := newCommand(t, Options{Argv: sh(script), Dir: t.TempDir()})
	_, err := c.Run(10, clk)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Run != 3 || ee.ExitCode() != 4 {
		t.Fatalf("Run = %v, want run 3 to exit with status 4", err)
	}
	if ee.Stderr() != "fail 3\n" {
		t.Errorf("Stderr() = %q, want only the failed run's stderr", ee.Stderr())
	}
	if !strings.HasSuffix(err.Error(), "(run 3 of 10): fail 3") {
		t.Errorf("Error() = %s", err)
	}
}

func TestRunStderrTail(t *testing.T) {
	c := newCommand(t, Options{Argv: sh(`for i in $(seq 2000); do echo "line $i" >&2; done; exit 1`)})
	_, err := c.Run(1, clk)
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("Run = %v, want *ExitError", err)
	}
	tail := ee.Stderr()
	if len(tail) > TailBytes || !strings.HasSuffix(tail, "line 2000\n") || !strings.HasPrefix(tail, "line ") {
		t.Errorf("tail of %d bytes: %.40q...", len(tail), tail)
	}
	if !strings.HasSuffix(err.Error(), "exited with status 1: line 2000") {
		t.Errorf("Error() = %s", err)
	}
}

func TestRunSignal(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("kill -SEGV $$")})
	_, err := c.Run(1, clk)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != -1 || ee.Status.Signal() != syscall.SIGSEGV {
		t.Fatalf("Run = %v, want death by SIGSEGV", err)
	}
	if !strings.Contains(err.Error(), "was killed by signal 11 (segmentation fault") {
		t.Errorf("Error() = %s", err)
	}
}

func TestRunIgnoreFailure(t *testing.T) {
	c := newCommand(t, Options{Argv: []string{"false"}, IgnoreFailure: true})
	if ns, err := c.Run(3, clk); err != nil || ns <= 0 {
		t.Fatalf("Run = %d, %v; want success", ns, err)
	}
	if c.Usage().Runs != 3 {
		t.Errorf("ran %d times, want 3", c.Usage().Runs)
	}
}

func TestRunShowOutput(t *testing.T) {
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	c := newCommand(t, Options{Argv: sh("echo out; echo err >&2"), ShowOutput: true, Output: out})
	if _, err := c.Run(2, clk); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out.Name())
	if string(got) != "out\nerr\nout\nerr\n" {
		t.Errorf("shown output = %q", got)
	}
	if _, err := New(Options{Argv: []string{"true"}, ShowOutput: true, Output: os.Stdout}); err == nil {
		t.Error("New with output to stdout: no error")
	}
}

func TestRunEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "check.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n[ \"$FOO\" = bar ] && [ \"$PWD\" = \""+dir+"\" ]\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newCommand(t, Options{Argv: []string{"./check.sh"}, Dir: dir, Env: []string{"FOO=bar"}})
	if _, err := c.Run(1, clk); err != nil {
		t.Fatal(err)
	}
}

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	noexec := filepath.Join(dir, "noexec")
	if err := os.WriteFile(noexec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		opts Options
		want string
	}{
		{Options{Argv: []string{"flybench-no-such-program", "--x"}}, `program "flybench-no-such-program" not found in $PATH`},
		{Options{Argv: []string{"./missing"}}, `cannot run "./missing": no such file or directory`},
		{Options{Argv: []string{noexec}}, `cannot run "` + noexec + `": permission denied`},
		{Options{Argv: []string{"./noexec"}, Dir: dir}, `cannot run "./noexec": permission denied`},
		{Options{Argv: []string{dir}}, "is a directory"},
		{Options{Argv: []string{"true"}, Dir: filepath.Join(dir, "nodir")}, "working directory"},
		{Options{}, "empty command"},
	}
	for _, tt := range tests {
		c, err := New(tt.opts)
		if err == nil {
			c.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%q) error = %v, want %q", tt.opts.Argv, err, tt.want)
		}
	}
}

func TestRunStartError(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte{0x7f, 'E', 'L', 'F', 0, 0, 0, 0}, 0o755); err != nil {
		t.Fatal(err)
	}
	c := newCommand(t, Options{Argv: []string{bad}})
	_, err := c.Run(1, clk)
	if !errors.Is(err, syscall.ENOEXEC) || !strings.Contains(err.Error(), "start") {
		t.Errorf("Run = %v, want an exec format error", err)
	}
	assertNoChildren(t)
}

func TestRunClosed(t *testing.T) {
	c, err := New(Options{Argv: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := c.Run(1, clk); err == nil {
		t.Error("Run after Close: no error")
	}
	if _, err := (&Command{}).Run(0, clk); err == nil {
		t.Error("Run(0): no error")
	}
}
