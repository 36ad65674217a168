package workerexec

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Workers built once for the whole test binary; "" when they could not be.
var nsWorker, cWorker string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "workerexec-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	nsWorker, cWorker = buildWorkers(dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// buildWorkers builds examples/nsworker with the go command and
// examples/cworker with cc, each when its tool is installed.
func buildWorkers(dir string) (ns, c string) {
	if goTool, err := exec.LookPath("go"); err == nil {
		ns = filepath.Join(dir, "nsworker")
		out, err := exec.Command(goTool, "build", "-o", ns, "github.com/flybench/flybench/examples/nsworker").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "build nsworker: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	if cc, err := exec.LookPath("cc"); err == nil {
		c = filepath.Join(dir, "cworker")
		out, err := exec.Command(cc, "-O2", "-o", c, "../../examples/cworker/worker.c").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "build cworker: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	return ns, c
}

func needWorker(t testing.TB, path, what string) {
	t.Helper()
	if path == "" {
		t.Skipf("%s not built: its compiler is not installed", what)
	}
}

// start starts a worker and closes it at the end of the test.
func start(t testing.TB, opts Options) *Worker {
	t.Helper()
	w, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

// assertGone fails if the process still exists (running or zombie) or if
// this process has any child left.
func assertGone(t *testing.T, pid int) {
	t.Helper()
	if pid == 0 {
		t.Fatal("no worker was started")
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("worker %d still exists (running or zombie)", pid)
	}
	assertNoChildren(t)
}

// assertNoChildren fails if this process has any child, running or zombie.
func assertNoChildren(t *testing.T) {
	t.Helper()
	var ws unix.WaitStatus
	if p, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil); err != unix.ECHILD {
		t.Errorf("wait4(-1, WNOHANG) = %d, %v; want ECHILD (a child was left behind)", p, err)
	}
}

func script(name string, args ...string) []string {
	return append([]string{"/bin/sh", "testdata/" + name}, args...)
}

// assertGoroutines fails if more than n goroutines are left a second from
// now: goroutines that have just finished their work may still be exiting.
func assertGoroutines(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Second); runtime.NumGoroutine() > n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines left, %d before Start:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
			return
		}
	}
}
