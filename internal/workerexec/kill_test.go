package workerexec

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestKillDuringRun kills a worker that hangs in a request from another
// goroutine: Run returns at once with ErrKilled, and the worker and its
// child are gone.
func TestKillDuringRun(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	pidFile := filepath.Join(t.TempDir(), "pid")
	w := start(t, Options{Argv: script("hangs.sh"), Env: append(os.Environ(), "PIDFILE="+pidFile)})
	done := make(chan error, 1)
	go func() {
		_, err := w.Run("sum", 1000)
		done <- err
	}()
	var grandchild int
	for deadline := time.Now().Add(2 * time.Second); grandchild == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		b, _ := os.ReadFile(pidFile)
		grandchild, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if grandchild == 0 {
		t.Fatal("the worker did not start its child")
	}
	killed := time.Now()
	w.Kill()
	select {
	case err := <-done:
		if d := time.Since(killed); d > time.Second {
			t.Errorf("Run returned %v after Kill", d)
		}
		want := `worker "/bin/sh testdata/hangs.sh" case "sum": killed during "run sum 1000"`
		if !errors.Is(err, ErrKilled) || err.Error() != want {
			t.Fatalf("Run = %v, want %q", err, want)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not return after Kill")
	}
	assertGone(t, w.Pid())
	assertDead(t, grandchild)
	if _, err := w.Run("sum", 1); !errors.Is(err, ErrKilled) {
		t.Errorf("Run after Kill = %v, want ErrKilled", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close after Kill = %v", err)
	}
	assertGoroutines(t, goroutines)
}

// TestKillIdle kills a worker between requests.
func TestKillIdle(t *testing.T) {
	needWorker(t, nsWorker, "examples/nsworker")
	w := start(t, Options{Argv: []string{nsWorker}})
	if _, err := w.Run("empty", 1); err != nil {
		t.Fatal(err)
	}
	w.Kill()
	w.Kill() // a second Kill is harmless
	if _, err := w.Run("empty", 1); !errors.Is(err, ErrKilled) {
		t.Errorf("Run after Kill = %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("Close after Kill = %v", err)
	}
	assertGone(t, w.Pid())
	w.Kill() // after reaping: signals nobody
}

// TestKillRace kills workers busy with short requests at varied moments,
// to give the race detector every interleaving of Kill with Run.
func TestKillRace(t *testing.T) {
	needWorker(t, nsWorker, "examples/nsworker")
	for i := range 10 {
		w := start(t, Options{Argv: []string{nsWorker}})
		done := make(chan error, 1)
		go func() {
			for {
				if _, err := w.Run("nop", 1000); err != nil {
					done <- err
					return
				}
			}
		}()
		time.Sleep(time.Duration(i) * 997 * time.Microsecond)
		w.Kill()
		select {
		case err := <-done:
			if !errors.Is(err, ErrKilled) {
				t.Fatalf("kill %d: Run = %v, want ErrKilled", i, err)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("kill %d: Run did not return", i)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		assertGone(t, w.Pid())
	}
}
