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

func TestPickPair(t *testing.T) {
	// cpus 0 and 2 are one core's threads, 1 and 3 another's
	smt := func(c int) []int { return [][]int{{0, 2}, {1, 3}, {0, 2}, {1, 3}}[c] }
	none := func(c int) []int { return []int{c} }
	for _, c := range []struct {
		name          string
		allowed, want []int
		siblings      func(int) []int
		pair          [2]int
		smt           bool
		err           string
	}{
		{"first two", []int{0, 1}, nil, none, [2]int{0, 1}, false, ""},
		{"skips the sibling", []int{0, 1, 2, 3}, nil, smt, [2]int{0, 1}, false, ""},
		{"skips the sibling listed first", []int{0, 2, 3}, nil, smt, [2]int{0, 3}, false, ""},
		{"only siblings", []int{1, 3}, nil, smt, [2]int{1, 3}, true, ""},
		{"asked for", []int{0, 1, 2, 3}, []int{2, 0}, smt, [2]int{2, 0}, true, ""},
		{"one cpu", []int{1}, nil, none, [2]int{}, false, "this process may run only on cpu 1"},
		{"not allowed", []int{0, 1}, []int{0, 5}, none, [2]int{}, false, "cpus cpu 0, cpu 5: this process may run only on cpu 0, cpu 1"},
		{"same twice", []int{0, 1}, []int{1, 1}, none, [2]int{}, false, "two distinct CPUs"},
		{"three", []int{0, 1, 2}, []int{0, 1, 2}, none, [2]int{}, false, "two distinct CPUs; 3 given"},
	} {
		p, err := PickPair(c.allowed, c.want, c.siblings)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && (p.CPUs != c.pair || p.SMTSiblings != c.smt):
			t.Errorf("%s: %+v, want %v smt %v", c.name, p, c.pair, c.smt)
		}
	}
}
