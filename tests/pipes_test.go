package tests

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/cli"
)

// TestReaderGoneRunsCleanup is flybench issue 21, item 2: fb-pair ... |
// head -c 100 died of SIGPIPE (exit 141) without a word and without its
// --cleanup. The reader going away is a failed write: one line on stderr,
// exit 14, --cleanup run, no command left running.
func TestReaderGoneRunsCleanup(t *testing.T) {
	dir := t.TempDir()
	marker := "0.0314159"
	cmd := exec.Command(tool("fb-pair"), "--progress", "none", "--samples", "1000", "-t", "60s",
		"--setup", "touch "+filepath.Join(dir, "setup"), "--cleanup", "touch "+filepath.Join(dir, "cleanup"),
		"--", "sleep "+marker, "sleep "+marker)
	code, stderr := headOf(t, cmd, 100)
	if code != cli.ExitOutput {
		t.Fatalf("exit %d, want %d; stderr %q", code, cli.ExitOutput, stderr)
	}
	want := "fb-pair: error: write record: standard output was closed by its reader (broken pipe); the run stopped, nothing left running, --cleanup ran\n"
	if stderr != want {
		t.Errorf("stderr %q\nwant   %q", stderr, want)
	}
	for _, f := range []string{"setup", "cleanup"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("--%s did not run: %v", f, err)
		}
	}
	if childRunning(marker) {
		t.Error("a benchmarked command outlived the run")
	}
}

// TestReaderGoneEveryStage: every stage that writes a stream or a report
// says so in one line and exits 14 when its reader goes away, instead of
// dying of SIGPIPE (exit 141) without a word.
func TestReaderGoneEveryStage(t *testing.T) {
	raw, err := exec.Command(tool("fb-pair"), quick("true", "true")...).Output()
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat(raw, 200) // more than a pipe holds
	for _, c := range []struct {
		tool string
		args []string
	}{
		{"fb-analyze", []string{"--resamples", "100"}},
		{"fb-report", []string{"--format", "json", "--samples"}},
	} {
		in := big
		if c.tool == "fb-report" {
			an := exec.Command(tool("fb-analyze"), "--resamples", "100")
			an.Stdin = bytes.NewReader(big)
			if in, err = an.Output(); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(tool(c.tool), c.args...)
		cmd.Stdin = bytes.NewReader(in)
		code, stderr := headOf(t, cmd, 10)
		if code != cli.ExitOutput || !strings.HasSuffix(stderr, "standard output was closed by its reader (broken pipe)\n") ||
			strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 14 and one line", c.tool, code, stderr)
		}
	}
}

// headOf runs cmd with its stdout into a pipe whose reader reads n bytes
// and closes it, as head -c n does, and returns its exit status and
// stderr. It fails the test if cmd takes more than 20 s.
func headOf(t *testing.T, cmd *exec.Cmd, n int) (int, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if _, err := io.ReadFull(r, make([]byte, n)); err != nil {
		t.Fatalf("read %d bytes: %v; stderr %s", n, err, stderr.String())
	}
	r.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running 20 s after its reader went away; stderr %s", stderr.String())
	}
	var xe *exec.ExitError
	if err != nil && !errors.As(err, &xe) {
		t.Fatal(err)
	}
	return exitStatus(cmd.ProcessState), stderr.String()
}

// exitStatus is a process's exit status as a shell reports it: 128 plus
// the signal that killed it.
func exitStatus(ps *os.ProcessState) int {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}
