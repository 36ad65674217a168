package tests

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// gateRun is one finished fb-gate invocation.
type gateRun struct {
	stdout, stderr string
	code           int
	record         ndjson.Gate
}

// runGate runs fb-gate with args and decodes the gate record on the
// first line of its stdout.
func runGate(t *testing.T, cmd *exec.Cmd) gateRun {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	r := gateRun{stdout: out.String(), stderr: errOut.String()}
	var xe *exec.ExitError
	if errors.As(err, &xe) {
		r.code = xe.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(r.stdout, "\n")
	if err := json.Unmarshal([]byte(first), &r.record); err != nil || r.record.Type != ndjson.TypeGate {
		t.Fatalf("stdout does not start with a gate record (%v), exit %d:\n%s\nstderr:\n%s", err, r.code, r.stdout, r.stderr)
	}
	return r
}

func gateCmd(args ...string) *exec.Cmd {
	return exec.Command(tool("fb-gate"), append([]string{"--progress", "none"}, args...)...)
}

// With the default limits the gate passes on a quiet host, then runs the
// program. The machine is shared: when it stays busy for three tries the
// test is skipped, but only after the timeouts showed a real breach.
func TestGatePassesOnAQuietHost(t *testing.T) {
	for try := 1; ; try++ {
		start := time.Now()
		r := runGate(t, gateCmd("--stable", "300ms", "--timeout", "5s", "--", "sh", "-c", "echo ran"))
		if r.code == 0 {
			if r.stdout != firstLine(r.stdout)+"\nran\n" || r.record.Outcome != ndjson.GatePassed {
				t.Fatalf("want the record, then ran:\n%s", r.stdout)
			}
			if r.record.WaitedNS < int64(300*time.Millisecond) || r.record.Polls < 3 || r.record.CPUs != runtime.NumCPU() {
				t.Fatalf("record %+v", r.record)
			}
			t.Logf("passed in %v (waited %v over %d polls)", time.Since(start), time.Duration(r.record.WaitedNS), r.record.Polls)
			return
		}
		checkTimeout(t, r, "5s")
		if try == 3 {
			t.Skipf("the host stayed busy for 3 tries: %s", r.stderr)
		}
	}
}

// Every CPU busy: the gate gives up with exit 10, writes the record and
// does not run the program.
func TestGateTimesOutUnderLoad(t *testing.T) {
	startLoad(t)
	r := runGate(t, gateCmd("--stable", "500ms", "--timeout", "2s", "--", "sh", "-c", "echo ran"))
	if r.code != 10 {
		t.Fatalf("exit %d, want 10\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	checkTimeout(t, r, "2s")
	if strings.Contains(r.stdout, "ran") || strings.TrimSuffix(r.stdout, "\n") != firstLine(r.stdout) {
		t.Fatalf("the program ran or more was written:\n%s", r.stdout)
	}
	if r.record.WaitedNS < int64(2*time.Second) || r.record.LastAveragePct < 50 {
		t.Fatalf("record %+v", r.record)
	}
}

// PROGRAM replaces fb-gate with the environment and the open files it
// inherited, as fb-lock's claim descriptors need.
func TestGateExecKeepsEnvironmentAndFiles(t *testing.T) {
	claim, err := os.CreateTemp(t.TempDir(), "claim")
	if err != nil {
		t.Fatal(err)
	}
	defer claim.Close()
	if _, err := claim.WriteString("held\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := claim.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	cmd := gateCmd("--max-average", "100", "--max-core", "100", "--stable", "100ms",
		"sh", "-c", `echo "fds=$HOST_CPU_CLAIM_FDS"; cat <&3`)
	cmd.Env = append(os.Environ(), "HOST_CPU_CLAIM_FDS=3")
	cmd.ExtraFiles = []*os.File{claim}
	r := runGate(t, cmd)
	if r.code != 0 || r.stdout != firstLine(r.stdout)+"\nfds=3\nheld\n" {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// On a terminal the wait is one line redrawn in place; the record stays on
// stdout, free of terminal controls.
func TestGateProgressInPlaceOnPTY(t *testing.T) {
	cmd := exec.Command(tool("fb-gate"), "--max-average", "100", "--max-core", "100", "--stable", "300ms")
	screen, out := onPTY(t, cmd)
	for _, want := range []string{"\r\x1b[2Kfb-gate  waiting for a quiet host", "\r\x1b[2Kfb-gate  waiting  average ",
		"(≤100%)  busiest cpu", "quiet  0.3s/0.3s  00:00:00", "\r\x1b[2Kfb-gate  quiet after 30"} {
		if !strings.Contains(screen, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, screen)
		}
	}
	if !strings.HasPrefix(string(out), `{"type":"gate"`) || bytes.Contains(out, []byte("\x1b")) {
		t.Errorf("stdout %q", out)
	}
}

// checkTimeout checks a timed-out run's record and message agree: the last
// poll broke a limit, or the limits held for less than the stable time.
func checkTimeout(t *testing.T, r gateRun, within string) {
	t.Helper()
	g := r.record
	if r.code != 10 || g.Outcome != ndjson.GateTimeout {
		t.Fatalf("exit %d, record %+v\n%s", r.code, g, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, "fb-gate: error: host not quiet within "+within+": ") || !strings.Contains(r.stderr, "fb-gate: hint: ") {
		t.Fatalf("stderr %q", r.stderr)
	}
	breach := g.LastAveragePct > g.MaxAveragePct || g.LastCorePct > g.MaxCorePct
	if !breach && !strings.Contains(r.stderr, "quiet for only the last") {
		t.Fatalf("timed out without a breach: %+v\n%s", g, r.stderr)
	}
}

// startLoad keeps every CPU busy until the test ends. The load also stops
// by itself after 30 s and when this process dies, so a failed or killed
// test cannot leave it spinning.
func startLoad(t *testing.T) {
	t.Helper()
	cmd := exec.Command(tool("load"), "-duty", "1", "-threads", strconv.Itoa(runtime.NumCPU()), "-for", "30s")
	cmd.SysProcAttr = dieWithParent()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	time.Sleep(200 * time.Millisecond)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
