package tests

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/cli"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TestHangingCommandTimesOut is flybench issue 21, item 3: fb-pair
// --until decision --max-time 3s -- 'sleep 1000' 'sleep 0.01' still ran
// after 20 s. A run has a time limit: by default, before a case's first
// run completes, what is left of --max-time; the hanging run is killed
// with its group, the stream ends with its end record, and the tool
// exits 15 with its own message, within --max-time and one run's limit.
func TestHangingCommandTimesOut(t *testing.T) {
	marker := "1000.2718"
	code, stream, stderr, took := runBounded(t, 30*time.Second, tool("fb-pair"), "--progress", "none",
		"--until", "decision", "--max-time", "3s", "--", "sleep "+marker, "sleep 0.01")
	checkTimedOut(t, code, stream, stderr, marker)
	if took > 3*time.Second+10*time.Second {
		t.Errorf("took %v: more than --max-time and one run's limit", took)
	}
	if !strings.Contains(stderr, "ran longer than its time limit of ") {
		t.Errorf("stderr %q", stderr)
	}
}

// TestTimeoutFlag: --timeout limits every run, in any phase: here a
// command that hangs on its fourth run, after calibration (-t 1s alone
// ran on for as long as the command hung).
func TestTimeoutFlag(t *testing.T) {
	dir := t.TempDir()
	marker := "1000.3141"
	hang := "n=$(cat " + dir + "/n 2>/dev/null || echo 0); echo $((n+1)) > " + dir + "/n; [ $n -lt 3 ] || sleep " + marker
	code, stream, stderr, took := runBounded(t, 30*time.Second, tool("fb-pair"), "--progress", "none", "--shell",
		"-t", "1s", "--samples", "10", "--timeout", "700ms", "--", hang, "true")
	checkTimedOut(t, code, stream, stderr, marker)
	if took > 15*time.Second {
		t.Errorf("took %v", took)
	}
	if !strings.Contains(stderr, "ran longer than its time limit of 700ms and was killed") ||
		!strings.Contains(stderr, "fb-pair: hint: give its runs longer with --timeout DURATION") {
		t.Errorf("stderr %q", stderr)
	}
	// --timeout none: no limit (a quick run still completes).
	code, _, stderr, _ = runBounded(t, 30*time.Second, tool("fb-pair"), append([]string{"--timeout", "none"}, quick("true", "true")...)...)
	if code != 0 {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// checkTimedOut: exit 15, a stream that ends with a failed end record,
// and the hanging command's process gone.
func checkTimedOut(t *testing.T, code int, stream []byte, stderr, marker string) {
	t.Helper()
	if code != cli.ExitTimedOut {
		t.Fatalf("exit %d, want %d; stderr %q", code, cli.ExitTimedOut, stderr)
	}
	types, end := parseStream(t, stream)
	if end == nil || types[len(types)-1] != ndjson.TypeEnd || end.Reason != ndjson.EndFailed || !strings.Contains(end.Error, "time limit") {
		t.Fatalf("the stream does not end with a failed end record: %v, %+v", types, end)
	}
	if childRunning(marker) {
		t.Error("the hanging command outlived the run")
	}
}

// runBounded runs a tool and kills it after limit, failing the test.
func runBounded(t *testing.T, limit time.Duration, name string, args ...string) (code int, stdout []byte, stderr string, took time.Duration) {
	t.Helper()
	cmd := exec.Command(name, args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running after %v; stderr %s", limit, errs.String())
	}
	return exitStatus(cmd.ProcessState), out.Bytes(), errs.String(), time.Since(began)
}
