package observe

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// procFixture is /proc for a worker of pid 42 with threads 42 and 43;
// edit replaces whole files.
func procFixture(edit map[string]string) fstest.MapFS {
	files := map[string]string{
		"42/stat":           "42 (w orker) S 1 42 42 0 -1 4194560 120 0 3 0 7 2 0 0 20 0 2 0 100 0 0\n",
		"42/status":         "Name:\tworker\nVmHWM:\t    8192 kB\nVmRSS:\t    6144 kB\nThreads:\t2\n",
		"42/task/42/status": "Name:\tworker\nvoluntary_ctxt_switches:\t10\nnonvoluntary_ctxt_switches:\t2\n",
		"42/task/43/status": "Name:\tworker\nvoluntary_ctxt_switches:\t5\nnonvoluntary_ctxt_switches:\t1\n",
		"42/io":             "rchar: 10\nwchar: 20\nread_bytes: 4096\nwrite_bytes: 8192\n",
	}
	for k, v := range edit {
		files[k] = v
	}
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

// fixtureRequest runs one request of a worker observed through fixture
// /proc files and returns its sample.
func fixtureRequest(t *testing.T, fsys fstest.MapFS) ndjson.Sample {
	t.Helper()
	cpu := int64(0)
	o := NewWorker(selected(t, "resources"), []int{42}, nil, []CustomSource{nil}, &stepClock{})
	o.reader = PidReader{Proc: fsys, CPU: func(int) (int64, error) { cpu += 1000; return cpu, nil }}
	o.self = &fakeSelf{}
	o.Before(0)
	var s ndjson.Sample
	o.After(0, 1, &s)
	return s
}

func TestFixtureProcAllCollected(t *testing.T) {
	s := fixtureRequest(t, procFixture(nil))
	want := map[string]float64{"cpu": 1000, "minor_faults": 0, "voluntary_switches": 0, "rss_change": 0, "rss_peak": 8192 << 10, "read_bytes": 0}
	for name, v := range want {
		if got := s.Axes[name]; got.S != string(axes.Collected) || got.V == nil || *got.V != v {
			t.Errorf("%s = %+v, want %v", name, got, v)
		}
	}
}

// A missing or unparsable /proc field gives its axis probe_failed with a
// reason naming the file and the field, for that sample; the other axes
// are collected.
func TestMissingOrGarbageProcFieldIsProbeFailed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   map[string]string
		axes   []string
		reason string
	}{
		{"VmHWM missing", map[string]string{"42/status": "Name:\tworker\nVmRSS:\t 6144 kB\n"},
			[]string{"rss_peak"}, "/proc/42/status: no VmHWM field"},
		{"VmRSS garbage", map[string]string{"42/status": "VmHWM:\t8192 kB\nVmRSS:\t61x4 kB\n"},
			[]string{"rss_change"}, `/proc/42/status: VmRSS "61x4" is not a count`},
		{"VmRSS empty", map[string]string{"42/status": "VmHWM:\t8192 kB\nVmRSS:\n"},
			[]string{"rss_change"}, "/proc/42/status: VmRSS has no value"},
		{"minflt garbage", map[string]string{"42/stat": "42 (w) S 1 42 42 0 -1 4194560 x12 0 3 0 7 2\n"},
			[]string{"minor_faults"}, `/proc/42/stat: minflt (field 10) "x12" is not a count`},
		{"majflt negative", map[string]string{"42/stat": "42 (w) S 1 42 42 0 -1 4194560 120 0 -3 0 7 2\n"},
			[]string{"major_faults"}, `/proc/42/stat: majflt (field 12) "-3" is not a count`},
		{"a thread without voluntary switches", map[string]string{"42/task/43/status": "Name:\tworker\nnonvoluntary_ctxt_switches:\t1\n"},
			[]string{"voluntary_switches"}, "/proc/42/task/43/status: no voluntary_ctxt_switches field"},
		{"io write_bytes missing", map[string]string{"42/io": "read_bytes: 4096\n"},
			[]string{"read_bytes", "write_bytes"}, "/proc/42/io: no write_bytes field"},
		{"io read_bytes garbage", map[string]string{"42/io": "read_bytes: many\nwrite_bytes: 1\n"},
			[]string{"read_bytes", "write_bytes"}, `/proc/42/io: read_bytes "many" is not a count`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fixtureRequest(t, procFixture(tc.edit))
			failed := map[string]bool{}
			for _, name := range tc.axes {
				failed[name] = true
				v := s.Axes[name]
				if v.S != string(axes.ProbeFailed) || v.V != nil || v.R != tc.reason {
					t.Errorf("%s = %+v, want probe_failed without a value, reason %q", name, v, tc.reason)
				}
			}
			if v := s.Axes["mem_peak"]; v.S != string(axes.UnsupportedMode) {
				t.Errorf("mem_peak = %+v, want unsupported_mode in a worker", v)
			}
			for name, v := range s.Axes {
				if !failed[name] && name != "fs_inputs" && name != "fs_outputs" && name != "mem_peak" && v.S != string(axes.Collected) {
					t.Errorf("%s = %+v, want collected", name, v)
				}
			}
		})
	}
}

func TestStatusField(t *testing.T) {
	data := []byte("VmPeak:\t  100 kB\nVmHWM:\t   64 kB\nvoluntary_ctxt_switches:\t7\nnonvoluntary_ctxt_switches:\t9\n")
	for field, want := range map[string]int64{"VmHWM": 64, "voluntary_ctxt_switches": 7, "nonvoluntary_ctxt_switches": 9} {
		if v, err := statusField("/proc/1/status", data, field); err != nil || v != want {
			t.Errorf("%s = %d, %v; want %d", field, v, err, want)
		}
	}
	if v, err := statusField("/proc/1/status", data, "VmRSS"); err == nil || v != 0 || err.Error() != "/proc/1/status: no VmRSS field" {
		t.Errorf("missing field: %d, %v", v, err)
	}
}

// An exec run's rss_peak is checked against its method's floor; when that
// cannot be read the sample says so rather than passing the check on a 0.
func TestUnreadablePeakFloorIsProbeFailed(t *testing.T) {
	use := &fakeUsage{runner.Usage{Runs: 1, MaxRSSKiB: 1024, PeakMethod: runner.PeakInherited, PeakErr: errors.New("/proc/self/status: no VmHWM field")}}
	o := NewExec(selected(t, "rss_peak"), []UsageSource{use}, &stepClock{})
	o.self = &fakeSelf{}
	o.Before(0)
	var s ndjson.Sample
	o.After(0, 1, &s)
	if v := s.Axes["rss_peak"]; v.S != string(axes.ProbeFailed) || v.V != nil || !strings.Contains(v.R, "/proc/self/status: no VmHWM field") {
		t.Fatalf("rss_peak = %+v", v)
	}
}

// Off Linux the /proc axes are unsupported_platform, in the run record with
// the reason and in every sample, never a value.
func TestProcAxesUnsupportedOffLinux(t *testing.T) {
	use := &fakeUsage{runner.Usage{Runs: 1, UserNS: 1000, ReadBytes: 0}}
	e := NewExec(selected(t, "cpu,read_bytes,write_bytes"), []UsageSource{use}, &stepClock{})
	e.self, e.goos = &fakeSelf{}, "darwin"
	w := NewWorker(selected(t, "cpu,minor_faults,read_bytes"), []int{42}, nil, []CustomSource{nil}, &stepClock{})
	w.reader, w.self, w.goos = PidReader{Proc: procFixture(nil), CPU: func(int) (int64, error) { return 0, nil }}, &fakeSelf{}, "freebsd"
	for _, tc := range []struct {
		name        string
		o           interface{ Infos() []ndjson.AxisInfo }
		unsupported []string
		goos        string
	}{
		{"exec", e, []string{"read_bytes", "write_bytes"}, "darwin"},
		{"worker", w, []string{"cpu", "minor_faults", "read_bytes"}, "freebsd"},
	} {
		for _, info := range tc.o.Infos() {
			want := string(axes.Collected)
			if slices.Contains(tc.unsupported, info.Name) {
				want = string(axes.UnsupportedPlatform)
				if !strings.Contains(info.Reason, "exists only on Linux (GOOS="+tc.goos+")") {
					t.Errorf("%s %s: reason %q", tc.name, info.Name, info.Reason)
				}
			}
			if info.Status != want {
				t.Errorf("%s %s: status %q, want %q", tc.name, info.Name, info.Status, want)
			}
		}
	}
	var s ndjson.Sample
	e.Before(0)
	e.After(0, 1, &s)
	for _, name := range []string{"read_bytes", "write_bytes"} {
		if v := s.Axes[name]; v.S != string(axes.UnsupportedPlatform) || v.V != nil {
			t.Errorf("exec %s = %+v", name, v)
		}
	}
	if v := s.Axes["cpu"]; v.S != string(axes.Collected) || *v.V != 1000 {
		t.Errorf("exec cpu (wait4) = %+v, want collected", v)
	}
	w.Before(0)
	w.After(0, 1, &s)
	for _, name := range []string{"cpu", "minor_faults", "read_bytes"} {
		if v := s.Axes[name]; v.S != string(axes.UnsupportedPlatform) || v.V != nil {
			t.Errorf("worker %s = %+v", name, v)
		}
	}
}
