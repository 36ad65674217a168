package runner

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// runAsync starts c.Run(n) and returns a channel for its error.
func runAsync(c *Command, n int64) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := c.Run(n, clk)
		done <- err
	}()
	return done
}

// waitErr waits at most 3 s for Run to return after Kill.
func waitErr(t *testing.T, done <-chan error, killed time.Time) error {
	t.Helper()
	select {
	case err := <-done:
		if d := time.Since(killed); d > time.Second {
			t.Errorf("Run returned %v after Kill", d)
		}
		return err
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not return after Kill")
		return nil
	}
}

func TestKillDuringBatch(t *testing.T) {
	c := newCommand(t, Options{Argv: []string{"sleep", "10"}})
	done := runAsync(c, 5)
	time.Sleep(100 * time.Millisecond)
	killed := time.Now()
	c.Kill()
	if err := waitErr(t, done, killed); !errors.Is(err, ErrKilled) {
		t.Fatalf("Run = %v, want ErrKilled", err)
	}
	if c.lastPID == 0 {
		t.Fatal("no child was started")
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(c.lastPID)); err == nil {
		t.Errorf("child %d still exists (zombie or running)", c.lastPID)
	}
	assertNoChildren(t)
	if _, err := c.Run(1, clk); !errors.Is(err, ErrKilled) {
		t.Errorf("Run after Kill = %v, want ErrKilled", err)
	}
}

// TestKillShellGroup checks that Kill takes the grandchildren of a --shell
// command with it: they share the child's process group.
func TestKillShellGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := newCommand(t, Options{Argv: sh("sleep 10 & echo $! > " + pidFile + "; wait")})
	done := runAsync(c, 1)
	var grandchild int
	for deadline := time.Now().Add(2 * time.Second); grandchild == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		b, _ := os.ReadFile(pidFile)
		grandchild, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if grandchild == 0 {
		t.Fatal("the shell did not start its child")
	}
	killed := time.Now()
	c.Kill()
	if err := waitErr(t, done, killed); !errors.Is(err, ErrKilled) {
		t.Fatalf("Run = %v, want ErrKilled", err)
	}
	// The orphaned grandchild is reaped by init (or stays a zombie if init
	// does not reap): either way it must not be running.
	for deadline := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(grandchild) + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("grandchild still alive: %s", stat)
		}
	}
	assertNoChildren(t)
}

func TestKillBeforeRun(t *testing.T) {
	c := newCommand(t, Options{Argv: []string{"true"}})
	c.Kill()
	if _, err := c.Run(3, clk); !errors.Is(err, ErrKilled) || c.lastPID != 0 {
		t.Errorf("Run = %v after starting pid %d; want ErrKilled and no start", err, c.lastPID)
	}
}

// TestKillRace kills batches of short runs at varied moments, to give the
// race detector every interleaving of Kill with start and wait.
func TestKillRace(t *testing.T) {
	for i := range 20 {
		c := newCommand(t, Options{Argv: []string{"true"}})
		done := runAsync(c, 1_000_000)
		time.Sleep(time.Duration(i) * 997 * time.Microsecond)
		killed := time.Now()
		c.Kill()
		if i%2 == 0 {
			c.Kill() // a second Kill is harmless
		}
		if err := waitErr(t, done, killed); !errors.Is(err, ErrKilled) {
			t.Fatalf("kill %d: Run = %v, want ErrKilled", i, err)
		}
	}
	assertNoChildren(t)
}

func TestKillIdle(t *testing.T) {
	c := newCommand(t, Options{Argv: []string{"true"}})
	if _, err := c.Run(2, clk); err != nil {
		t.Fatal(err)
	}
	c.Kill() // nothing running: nothing to signal
	var ws unix.WaitStatus
	if _, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil); err != unix.ECHILD {
		t.Errorf("wait4 = %v, want ECHILD", err)
	}
}

func TestLimitKillsAHangingRun(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("sleep 0.01")})
	c.SetLimit(300 * time.Millisecond)
	if _, err := c.Run(3, clk); err != nil {
		t.Fatalf("runs within the limit: %v", err)
	}
	if c.LongestRun() < 10*time.Millisecond || c.LongestRun() > 300*time.Millisecond {
		t.Errorf("LongestRun %v, want about 10 ms", c.LongestRun())
	}
	hang := newCommand(t, Options{Argv: sh("sleep 30 & sleep 30"), KillSurvivors: true})
	hang.SetLimit(200 * time.Millisecond)
	began := time.Now()
	_, err := hang.Run(2, clk)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Limit != 200*time.Millisecond || te.Run != 1 || te.Batch != 2 {
		t.Fatalf("Run = %v, want a *TimeoutError at run 1 of 2", err)
	}
	if took := time.Since(began); took < 200*time.Millisecond || took > 5*time.Second {
		t.Errorf("killed after %v, want soon after 200ms", took)
	}
	if hang.Escaped() != 0 {
		t.Errorf("the killed group counted as escaped")
	}
	for deadline := time.Now().Add(5 * time.Second); groupAlive(hang.lastPID) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if groupAlive(hang.lastPID) {
		t.Error("the hanging run's group survived")
	}
	t.Log(err)
}
