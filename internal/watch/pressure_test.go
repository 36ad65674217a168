package watch

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

func pressureFS(cpu, mem, io string) fstest.MapFS {
	fs := fstest.MapFS{}
	for name, text := range map[string]string{"cpu": cpu, "memory": mem, "io": io} {
		if text != "" {
			fs["proc/pressure/"+name] = &fstest.MapFile{Data: []byte(text)}
		}
	}
	return fs
}

func TestProcPressure(t *testing.T) {
	p := ProcPressure{Root: pressureFS(
		"some avg10=96.79 avg60=96.56 avg300=94.04 total=7815356932\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=68664349\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=60242578\n",
		"some avg10=0.12 avg60=0.09 avg300=0.48 total=250245915\n")} // no full line: an older kernel's cpu file, here for io
	got, err := p.Read()
	want := StallTotals{Some: [3]int64{7815356932, 68664349, 250245915}, Full: [3]int64{0, 60242578, 0}}
	if err != nil || got != want {
		t.Fatalf("Read = %+v, %v; want %+v", got, err, want)
	}
	for _, c := range []struct {
		fs   fstest.MapFS
		want string
	}{
		{pressureFS("some total=1\n", "some total=1\n", ""), "/proc/pressure/io does not exist: the kernel keeps no pressure stall information"},
		{pressureFS("some avg10=1.00\n", "some total=1\n", "some total=1\n"), `/proc/pressure/cpu: line "some avg10=1.00" has no total`},
		{pressureFS("some total=-5\n", "some total=1\n", "some total=1\n"), `total "-5" is not a count of microseconds`},
		{pressureFS("full total=5\n", "some total=1\n", "some total=1\n"), "/proc/pressure/cpu: no some line"},
	} {
		if _, err := (ProcPressure{Root: c.fs}).Read(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}

// stalls is a scripted pressure reader: each read returns the next totals.
type stalls struct {
	seq []StallTotals
	err error
}

func (s *stalls) Read() (StallTotals, error) {
	if s.err != nil {
		return StallTotals{}, s.err
	}
	t := s.seq[0]
	s.seq = s.seq[1:]
	return t, nil
}

func TestWindowPressure(t *testing.T) {
	h := &host{clk: &clock{}, busy: map[int]int64{0: 0, 1: 0}, ncpu: 2}
	// over a 100 ms window: the CPU had a task waiting 40 ms, memory 5 ms
	// (2 ms with every task stalled), I/O nothing
	p := &stalls{seq: []StallTotals{{}, {Some: [3]int64{40_000, 5_000, 0}, Full: [3]int64{0, 2_000, 0}}}}
	m := New(h, h, h.clk, func(time.Duration) {}, 10, 2, nil).WithPressure(p)
	m.Begin()
	h.advance(100 * time.Millisecond)
	est := m.End()
	want := ndjson.Pressure{CPUSomePct: 40, MemorySomePct: 5, MemoryFullPct: 2}
	if est.Pressure == nil || *est.Pressure != want || est.PressureUnavailable != "" {
		t.Fatalf("pressure %+v (%q), want %+v", est.Pressure, est.PressureUnavailable, want)
	}

	m = New(h, h, h.clk, func(time.Duration) {}, 10, 2, nil).WithPressure(&stalls{err: errNoPSI})
	m.Begin()
	h.advance(100 * time.Millisecond)
	if est = m.End(); est.Pressure != nil || est.PressureUnavailable != errNoPSI.Error() {
		t.Fatalf("without PSI: %+v %q", est.Pressure, est.PressureUnavailable)
	}
	m = New(h, h, h.clk, func(time.Duration) {}, 10, 2, nil)
	m.Begin()
	h.advance(100 * time.Millisecond)
	if est = m.End(); est.Pressure != nil || est.PressureUnavailable != "" {
		t.Fatalf("not asked for: %+v %q", est.Pressure, est.PressureUnavailable)
	}
}

var errNoPSI = errors.New("/proc/pressure/cpu does not exist: the kernel keeps no pressure stall information (CONFIG_PSI, or psi=0)")
