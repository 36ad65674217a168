package tests

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNoiseForwardsSIGINT interrupts fb-noise while an invocation of
// fb-pair runs a long sleep: the signal reaches fb-pair (in its own process
// group, so only through fb-noise), which stops its child; fb-noise reaps
// it, writes nothing to stdout and keeps no partial stream.
func TestNoiseForwardsSIGINT(t *testing.T) {
	marker := "27.1828"
	keep := t.TempDir()
	cmd := exec.Command(tool("fb-noise"), "--keep", keep, "--", tool("fb-pair"), "--progress", "none", "--", "sleep "+marker, "sleep "+marker)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return childRunning(marker) }, "the sleep child to start")
	began := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var xe *exec.ExitError
	if !errors.As(err, &xe) || xe.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr %s", err, stderr.String())
	}
	if time.Since(began) > 5*time.Second {
		t.Errorf("took %v to stop: the signal did not reach the invocation", time.Since(began))
	}
	if childRunning(marker) {
		t.Error("the benchmarked command outlived fb-noise")
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want nothing", out.String())
	}
	want := "fb-noise: error: invocation 1: interrupted by SIGINT; nothing was written to stdout\n"
	if !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr %q, want it to start %q", stderr.String(), want)
	}
	if files, _ := os.ReadDir(keep); len(files) != 0 {
		t.Errorf("kept %v of an interrupted invocation", files)
	}
}
