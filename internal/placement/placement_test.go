package placement

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
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

// Where there is no sched_setaffinity, placement is rejected with a reason
// that names the status and the platform, never reported as strict.
func TestUnsupportedPlatformRejects(t *testing.T) {
	r := unsupported(2, "darwin")
	if r.Outcome != "rejected" || r.CPU != 2 || r.Watched != nil {
		t.Fatalf("%+v", r)
	}
	if !strings.HasPrefix(r.Reason, "unsupported_platform: ") || !strings.Contains(r.Reason, "darwin") {
		t.Fatalf("reason %q", r.Reason)
	}
}
