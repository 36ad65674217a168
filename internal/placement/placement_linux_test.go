package placement

import (
	"runtime"
	"testing"
	"testing/fstest"

	"golang.org/x/sys/unix"
)

// The real thing: pin this thread to the last allowed CPU and read it back.
func TestPinRealThread(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var before unix.CPUSet
	if err := unix.SchedGetaffinity(0, &before); err != nil {
		t.Skip(err)
	}
	defer unix.SchedSetaffinity(0, &before)
	cpu := -1
	for c := 0; c < len(before)*64; c++ {
		if before.IsSet(c) {
			cpu = c
		}
	}
	r := Pin(cpu, fstest.MapFS{})
	var now unix.CPUSet
	unix.SchedGetaffinity(0, &now)
	if r.Outcome != "strict" || now.Count() != 1 || !now.IsSet(cpu) {
		t.Fatalf("pin %d: %+v, now %v", cpu, r, now)
	}
	if r := Pin(4096, fstest.MapFS{}); r.Outcome != "rejected" || r.Reason == "" {
		t.Fatalf("impossible cpu: %+v", r)
	}
}
