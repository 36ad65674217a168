package runner

import (
	"errors"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// killGroupOf ends what a test run left behind in its process group.
func killGroupOf(t *testing.T, c *Command) {
	t.Cleanup(func() { _ = unix.Kill(-c.lastPID, unix.SIGKILL) })
}

func TestContainRefusesBackgroundJob(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("sleep 5 & exit 0"), Contain: true})
	killGroupOf(t, c)
	_, err := c.Run(3, clk)
	var ee *EscapeError
	if !errors.As(err, &ee) {
		t.Fatalf("Run = %v, want *EscapeError", err)
	}
	if ee.Run != 1 || ee.Batch != 3 {
		t.Errorf("escape at run %d of %d, want 1 of 3", ee.Run, ee.Batch)
	}
	t.Log(err)
}

func TestContainAcceptsWaitedChildren(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("sleep 0.01 & true | cat; wait"), Contain: true})
	if _, err := c.Run(2, clk); err != nil {
		t.Fatalf("Run = %v, want no error: every child was waited for", err)
	}
	if u := c.Usage(); u.Runs != 2 {
		t.Errorf("ran %d times, want 2", u.Runs)
	}
}

func TestKillSurvivorsKillsAndCounts(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("sleep 5 & exit 0"), KillSurvivors: true})
	if _, err := c.Run(3, clk); err != nil {
		t.Fatalf("Run = %v, want no error: survivors are killed, not refused", err)
	}
	if c.Escaped() != 3 {
		t.Errorf("Escaped = %d, want 3", c.Escaped())
	}
	for deadline := time.Now().Add(5 * time.Second); groupAlive(c.lastPID) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // init reaps the killed job
	}
	if groupAlive(c.lastPID) {
		t.Error("the background job survived")
	}
	waited := newCommand(t, Options{Argv: sh("sleep 0.01 & wait"), KillSurvivors: true})
	if _, err := waited.Run(2, clk); err != nil || waited.Escaped() != 0 {
		t.Errorf("waited-for children: Run = %v, Escaped = %d; want none", err, waited.Escaped())
	}
}

func TestBackgroundJobIgnoredWithoutContain(t *testing.T) {
	c := newCommand(t, Options{Argv: sh("sleep 5 & exit 0")})
	killGroupOf(t, c)
	if _, err := c.Run(1, clk); err != nil {
		t.Fatalf("Run = %v, want no error without Contain", err)
	}
}
