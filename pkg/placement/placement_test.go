package placement

import (
	"reflect"
	"runtime"
	"testing"
	"testing/fstest"

	"golang.org/x/sys/unix"
)

func TestParseList(t *testing.T) {
	got, err := ParseList("0-3,8,10-11")
	if err != nil || !reflect.DeepEqual(got, []int{0, 1, 2, 3, 8, 10, 11}) {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"a", "3-1", "1-x"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestSiblingsFromTopology(t *testing.T) {
	fsys := fstest.MapFS{"devices/system/cpu/cpu1/topology/thread_siblings_list": {Data: []byte("1,5\n")}}
	if got := Siblings(fsys, 1); !reflect.DeepEqual(got, []int{1, 5}) {
		t.Fatalf("siblings %v", got)
	}
	if got := Siblings(fsys, 2); !reflect.DeepEqual(got, []int{2}) {
		t.Fatalf("no topology: %v", got)
	}
}

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
