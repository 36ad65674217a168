package observe

import (
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"
)

func TestChildrenAndReapedTicks(t *testing.T) {
	// The shell spins in a child of its own for about 50 ms of CPU time,
	// waits for it, then sleeps with one more child alive.
	cmd := exec.Command("/bin/sh", "-c", `(i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done); exec sleep 5`)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pid := cmd.Process.Pid
	ticks := int64(0)
	for deadline := time.Now().Add(10 * time.Second); ticks == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		var err error
		if ticks, err = ReapedChildrenTicks(pid); err != nil {
			t.Fatal(err)
		}
	}
	if ticks == 0 {
		t.Fatal("the shell reaped a busy child, but its cutime+cstime stayed 0 ticks")
	}
	mine, err := Children(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(mine, pid) {
		t.Errorf("Children(self) = %v, want it to hold the shell %d", mine, pid)
	}
	if kids, _ := Children(pid); len(kids) != 0 {
		t.Errorf("Children(shell) = %v after it exec'd sleep, want none", kids)
	}
}
