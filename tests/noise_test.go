package tests

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
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
	signalAndReap(t, cmd, marker, syscall.SIGINT, 130, &stderr)
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
