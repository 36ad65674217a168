package hostload

import (
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"
)

func TestReadCapturedProcStat(t *testing.T) {
	s, err := ProcStat{Path: "testdata/two-cpus.stat"}.Read()
	if err != nil {
		t.Fatal(err)
	}
	want := CPUTimes{User: 315790 * TickNS, System: 171250 * TickNS, Idle: 477551 * TickNS, IOWait: 1309 * TickNS, SoftIRQ: 2176 * TickNS}
	if s.Total != want {
		t.Fatalf("total %+v, want %+v", s.Total, want)
	}
	if ids := s.IDs(); len(ids) != 2 || ids[0] != 0 || ids[1] != 1 {
		t.Fatalf("ids %v", ids)
	}
	if got := s.CPUs[1].Busy(); got != (158201+87604+1058)*TickNS {
		t.Fatalf("cpu1 busy %d", got)
	}
}

func TestReadRealProcStat(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc/stat")
	}
	s, err := ProcStat{}.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.CPUs) == 0 || s.Total.Total() <= 0 {
		t.Fatalf("implausible snapshot %+v", s)
	}
}

// Guest time is inside user and nice already; counting its columns again
// would inflate busy time on a virtualization host.
func TestGuestColumnsNotCountedTwice(t *testing.T) {
	s := mustRead(t, "cpu  100 20 30 400 5 6 7 8 90 10\ncpu0 100 20 30 400 5 6 7 8 90 10\n")
	c := s.CPUs[0]
	if c.Total() != (100+20+30+400+5+6+7+8)*TickNS || c.Busy() != (100+20+30+6+7+8)*TickNS {
		t.Fatalf("total %d busy %d", c.Total(), c.Busy())
	}
}

func TestReadOldKernelColumns(t *testing.T) {
	s := mustRead(t, "cpu  1 2 3 4\ncpu0 1 2 3 4\n")
	if c := s.CPUs[0]; c.Idle != 4*TickNS || c.Steal != 0 {
		t.Fatalf("%+v", c)
	}
}

func TestReadStopsAtTheEndOfTheCPUBlock(t *testing.T) {
	r := &countingReader{r: strings.NewReader("cpu  1 2 3 4\ncpu0 1 2 3 4\nintr " + strings.Repeat("0 ", 1<<20) + "\n")}
	if _, err := Read(r); err != nil {
		t.Fatal(err)
	}
	if r.n > 64<<10 {
		t.Fatalf("read %d bytes: the interrupt line was read", r.n)
	}
}

func TestReadErrors(t *testing.T) {
	huge := "92233720368547758" // ticks: more than an int64 of nanoseconds
	for _, tc := range []struct{ text, want string }{
		{"", "no aggregate cpu line"},
		{"intr 1 2\ncpu  1 2 3 4\ncpu0 1 2 3 4\n", "no aggregate cpu line"},
		{"cpu  1 2 3 4\n", "no per-CPU lines"},
		{"cpu  1 2 3 4\ncpu0 1 2 3\n", "line 2: cpu0 has 3 counters, want at least 4"},
		{"cpu  1 2 3 4\ncpu0 1 2 x 4\n", `line 2: cpu0 column 3: "x" is not a tick count`},
		{"cpu  1 2 3 4\ncpu0 1 2 -3 4\n", `"-3" is not a tick count`},
		{"cpu  1 2 3 4\ncpuX 1 2 3 4\n", `line 2: "cpuX" is not a cpu name`},
		{"cpu  1 2 3 4\ncpu-1 1 2 3 4\n", `"cpu-1" is not a cpu name`},
		{"cpu  1 2 3 4\ncpu0 1 2 3 4\ncpu0 1 2 3 4\n", "line 3: cpu0 appears twice"},
		{"cpu  1 2 3 4\ncpu  1 2 3 4\n", "line 2: the aggregate cpu line appears twice"},
		{"cpu  1 2 3 4\ncpu0 " + huge + " 2 3 4\n", "more than an int64"},
	} {
		_, err := Read(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestAggregateSaturates(t *testing.T) {
	s := mustRead(t, "cpu  1 2 3 92233720368547758\ncpu0 1 2 3 4\n")
	if s.Total.Idle != math.MaxInt64 {
		t.Fatalf("idle %d", s.Total.Idle)
	}
}

func TestReadErrorIsReported(t *testing.T) {
	boom := errors.New("boom")
	_, err := Read(io.MultiReader(strings.NewReader("cpu  1 2 3 4\n"), errReader{boom}))
	if !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
}

func TestReplay(t *testing.T) {
	r := NewReplay("cpu  1 2 3 4\ncpu0 1 2 3 4\n", "garbage")
	if _, err := r.Read(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(); err == nil || !strings.Contains(err.Error(), "replay snapshot 2") {
		t.Fatalf("error %v", err)
	}
	if _, err := r.Read(); err == nil || !strings.Contains(err.Error(), "all 2 snapshots read") {
		t.Fatalf("error %v", err)
	}
}

func FuzzRead(f *testing.F) {
	data, err := os.ReadFile("testdata/two-cpus.stat")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add("cpu  1 2 3 4 5 6 7 8 9 10\ncpu3 1 2 3 4\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		for id, c := range s.CPUs {
			if id < 0 || c.Busy() < 0 || c.Total() < c.Busy() {
				t.Fatalf("cpu%d %+v", id, c)
			}
		}
	})
}

func mustRead(t *testing.T, text string) Snapshot {
	t.Helper()
	s, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
