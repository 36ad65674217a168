package workerexec

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const shortTimeout = 300 * time.Millisecond

// TestBrokenHandshake: each worker fails Start with the documented error,
// and leaves no process behind.
func TestBrokenHandshake(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		check      func(error) bool
	}{
		{"wrong-version.sh",
			`worker "/bin/sh testdata/wrong-version.sh": bad handshake "flybench-worker 2": the worker speaks flybench-worker version 2; this harness speaks version 1`,
			isType[*ProtocolError]},
		{"no-ready.sh", `worker "/bin/sh testdata/no-ready.sh": no handshake within 300ms`, isType[*TimeoutError]},
		{"exits.sh", `worker "/bin/sh testdata/exits.sh" exited with status 1 during the handshake: not today`, isType[*ExitError]},
		{"dies.sh", "", nil}, // handshakes fine
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := Start(Options{Argv: script(tc.name), StartTimeout: shortTimeout})
			if tc.check == nil {
				if err != nil {
					t.Fatal(err)
				}
				w.Kill()
				w.Close()
				return
			}
			if err == nil || !tc.check(err) || err.Error() != tc.want {
				t.Fatalf("Start = %T %v\nwant %q", err, err, tc.want)
			}
			assertNoChildren(t)
		})
	}
}

// TestBrokenAnswers: each worker fails its first Run with the documented
// error, naming the case and the request, and is killed and reaped.
func TestBrokenAnswers(t *testing.T) {
	const req = `"run sum 1000"`
	for _, tc := range []struct {
		argv  []string
		want  string
		check func(error) bool
	}{
		{script("dies.sh"), `worker "/bin/sh testdata/dies.sh" case "sum" exited with status 3 during ` + req + `: dying: out of cheese`, isType[*ExitError]},
		{script("hangs.sh"), `worker "/bin/sh testdata/hangs.sh" case "sum": no answer to ` + req + ` within 300ms`, isType[*TimeoutError]},
		{script("answer.sh", "done prod %s"),
			`worker "/bin/sh testdata/answer.sh 'done prod %s'" case "sum": bad answer "done prod 1000" to ` + req + `: done names case "prod", not "sum"`,
			isType[*ProtocolError]},
		{script("answer.sh", "done sum 999"), `bad answer "done sum 999" to ` + req + `: done reports n 999, not 1000`, isType[*ProtocolError]},
		{script("answer.sh", "done sum %s elapsed_ns=NaN"), `to ` + req + `: elapsed_ns=NaN: an elapsed time must be finite`, isType[*ProtocolError]},
		{script("answer.sh", "done sum %s elapsed_ns=-5"), `to ` + req + `: elapsed_ns=-5: an elapsed time cannot be negative`, isType[*ProtocolError]},
		{script("answer.sh", "done sum %s elapsed_ns=fast"), `elapsed_ns=fast: not a decimal number`, isType[*ProtocolError]},
		{script("answer.sh", "done sum %s other=1"), `undeclared axis "other"`, isType[*ProtocolError]},
		{script("answer.sh", "done sum %s items=7"), `axis items=7: a cumulative axis reports begin:end`, isType[*ProtocolError]},
		{script("answer.sh", "hello"), `bad answer "hello" to ` + req + `: unknown answer`, isType[*ProtocolError]},
		{script("answer.sh", "error sum out of cheese"),
			`worker "/bin/sh testdata/answer.sh 'error sum out of cheese'" case "sum" failed on ` + req + `: out of cheese`,
			isType[*WorkerError]},
		{script("answer.sh", "error prod out of cheese"), `error line names case "prod", not "sum"`, isType[*ProtocolError]},
		{script("closes-stdout.sh"), `case "sum": bad answer to ` + req + `: closed its standard output but kept running`, isType[*ProtocolError]},
	} {
		t.Run(strings.Join(tc.argv[1:], " "), func(t *testing.T) {
			w := start(t, Options{Argv: tc.argv, RequestTimeout: shortTimeout})
			_, err := w.Run("sum", 1000)
			if err == nil || !tc.check(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Run = %T %v\nwant %q in it", err, err, tc.want)
			}
			if !strings.Contains(err.Error(), `case "sum"`) {
				t.Errorf("%q does not name the case", err)
			}
			assertGone(t, w.Pid())
			if _, again := w.Run("sum", 1); again != err {
				t.Errorf("Run after the failure = %v, want the same error", again)
			}
			if err := w.Close(); err != nil {
				t.Errorf("Close after the failure: %v", err)
			}
		})
	}
}

// TestStderrTail: an ExitError carries the end of the worker's stderr.
func TestStderrTail(t *testing.T) {
	w := start(t, Options{Argv: script("dies.sh")})
	_, err := w.Run("sum", 1000)
	var ee *ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || ee.Stderr() != "starting run sum 1000\ndying: out of cheese\n" ||
		ee.Case() != "sum" || ee.Request() != "run sum 1000" {
		t.Fatalf("%v: stderr %q", err, ee.Stderr())
	}
}

// TestTrimCapture: a long-running worker's capture is cut back to its tail.
func TestTrimCapture(t *testing.T) {
	w := start(t, Options{Argv: script("quit.sh", "status")})
	if _, err := w.Run("sum", 1); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 100) + "\n"
	for range captureLimit/len(big) + 10 {
		if _, err := w.capture.WriteString(big); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Run("sum", 2); err != nil {
		t.Fatal(err)
	}
	if fi, _ := w.capture.Stat(); fi.Size() > TailBytes {
		t.Errorf("capture is %d bytes after a trim", fi.Size())
	}
	err := w.Close()
	var ee *ExitError
	if !errors.As(err, &ee) || !strings.HasPrefix(ee.Stderr(), big) || !strings.HasSuffix(ee.Stderr(), big+"quitting badly\n") {
		t.Fatalf("Close = %v, stderr %q", err, ee.Stderr())
	}
}

func TestQuit(t *testing.T) {
	t.Run("status", func(t *testing.T) {
		w := start(t, Options{Argv: script("quit.sh", "status")})
		err := w.Close()
		want := `worker "/bin/sh testdata/quit.sh status" exited with status 4 after "quit": quitting badly`
		if !isType[*ExitError](err) || err.Error() != want {
			t.Fatalf("Close = %v, want %q", err, want)
		}
		assertGone(t, w.Pid())
	})
	t.Run("ignore", func(t *testing.T) {
		w := start(t, Options{Argv: script("quit.sh", "ignore")})
		began := time.Now()
		err := w.Close()
		want := `worker "/bin/sh testdata/quit.sh ignore": still running 2s after "quit"; killed`
		if !isType[*TimeoutError](err) || err.Error() != want {
			t.Fatalf("Close = %v, want %q", err, want)
		}
		if d := time.Since(began); d < QuitTimeout || d > QuitTimeout+time.Second {
			t.Errorf("Close took %v", d)
		}
		assertGone(t, w.Pid())
	})
}

// TestGrandchildKilled: a timeout kills the worker's process group, so
// the child the worker started dies with it.
func TestGrandchildKilled(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	w := start(t, Options{Argv: script("hangs.sh"), Env: append(os.Environ(), "PIDFILE="+pidFile), RequestTimeout: shortTimeout})
	if _, err := w.Run("sum", 1); !isType[*TimeoutError](err) {
		t.Fatalf("Run = %v, want a timeout", err)
	}
	b, _ := os.ReadFile(pidFile)
	grandchild, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q", b)
	}
	assertGone(t, w.Pid())
	assertDead(t, grandchild)
}

// assertDead waits up to a second for a process that is not our child to
// be dead: gone, or a zombie waiting for init.
func assertDead(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still alive: %s", pid, stat)
		}
	}
}

func isType[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}
