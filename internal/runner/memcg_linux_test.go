package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestChargedPeakOfTouch runs examples/touch, which touches 32 MiB, in a
// cgroup of its own, in exec and batch modes: each batch's mem_peak is the
// 32 MiB and the program's few hundred KiB, the thread that forked the runs
// is back in this process's cgroup after the batch, and Close removes the
// cgroup. Hosts without a usable memory cgroup skip, saying why.
func TestChargedPeakOfTouch(t *testing.T) {
	m := ChooseCgroups()
	if m.Err != nil {
		t.Skip("no memory cgroup here: " + m.Err.Error())
	}
	touch := buildTouch(t)
	for _, batch := range []bool{false, true} {
		c, err := New(Options{Argv: []string{touch, "32"}, Batch: batch, Charged: true})
		if err != nil {
			t.Fatal(err)
		}
		dir := c.cg.dir
		runtime.LockOSThread()
		for _, n := range []int64{1, 3} {
			if _, err := c.Run(n, clk); err != nil {
				t.Fatal(err)
			}
			u := c.Usage()
			got := u.ChargedPeakBytes >> 10
			// The kernel charges in per-CPU batches of up to 256 KiB, so a
			// single value can read that much per CPU below what was
			// touched (32,424 KiB was seen on 2 CPUs).
			short := 256 * int64(runtime.NumCPU())
			if u.ChargedErr != nil || u.ChargedMethod != m.Method() || got < 32<<10-short || got > 32<<10+1024 {
				t.Errorf("batch %v, n %d: mem_peak %d KiB (%s, %v), want 32 MiB, at most %d KiB less or 1 MiB more", batch, n, got, u.ChargedMethod, u.ChargedErr, short)
			}
			t.Logf("batch %v, n %d: mem_peak %d KiB", batch, n, got)
			if m.Version == 1 {
				if cg := threadMemCgroup(t); !strings.HasSuffix(m.Home, cg) {
					t.Errorf("after the batch this thread is in %s, want %s", cg, m.Home)
				}
			}
		}
		runtime.UnlockOSThread()
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("after Close the cgroup %s: %v, want it removed", dir, err)
		}
	}
}

// threadMemCgroup is the v1 memory cgroup of the calling thread.
func threadMemCgroup(t *testing.T) string {
	data, err := os.ReadFile("/proc/thread-self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if parts := strings.SplitN(line, ":", 3); len(parts) == 3 && strings.Contains(","+parts[1]+",", ",memory,") {
			return parts[2]
		}
	}
	t.Fatalf("no memory line in %s", data)
	return ""
}

// A cgroup a killed flybench left (flybench-PID-N of a process that is
// gone) is removed when the next one chooses its cgroups; one of a live
// process stays.
func TestRemoveStaleCgroups(t *testing.T) {
	m := ChooseCgroups()
	if m.Err != nil {
		t.Skip("no memory cgroup here: " + m.Err.Error())
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(m.Parent, fmt.Sprintf("flybench-%d-1", cmd.Process.Pid))
	live := filepath.Join(m.Parent, "flybench-1-1")
	for _, d := range []string{gone, live} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.Remove(gone); os.Remove(live) })
	removeStale(m.Parent)
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("%s: %v, want it removed", gone, err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("%s: %v, want it kept (pid 1 is alive)", live, err)
	}
}
