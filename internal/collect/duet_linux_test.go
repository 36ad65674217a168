package collect

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// duetOp is an operation that, while the run samples, waits for the
// other side of its pair to arrive: the timed batches of pair p are
// arrivals 2p+1 and 2p+2, so a batch whose partner did not arrive within
// a second ran alone, and is counted. It reports 1 µs per operation
// whatever it took, so calibration gives batches of hundreds of
// operations however loaded the machine: a batch of one operation while
// the run samples is company for the other side. It records the OS
// thread of every timed batch.
type duetOp struct {
	arrivals *atomic.Int64
	sampling *atomic.Bool
	mu       sync.Mutex
	tids     []int
	alone    int
	company  int
}

func (o *duetOp) Run(n int64) (int64, error) {
	if !o.sampling.Load() {
		return n * 1000, nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if n == 1 {
		o.company++
		return 1000, nil
	}
	o.tids = append(o.tids, unix.Gettid())
	o.mu.Unlock()
	a := o.arrivals.Add(1)
	both := 2 * ((a-1)/2 + 1)
	for deadline := time.Now().Add(time.Second); o.arrivals.Load() < both && time.Now().Before(deadline); {
		time.Sleep(50 * time.Microsecond)
	}
	o.mu.Lock()
	if o.arrivals.Load() < both {
		o.alone++
	}
	return n * 1000, nil
}

type phaseWatch struct{ sampling *atomic.Bool }

func (p phaseWatch) Update(s Status) {
	if s.Phase == PhaseSampling {
		p.sampling.Store(true)
	}
}

func TestDuetRunsBothSidesAtOnceAndSwapsCPUs(t *testing.T) {
	var arrivals atomic.Int64
	var sampling atomic.Bool
	ops := []*duetOp{{arrivals: &arrivals, sampling: &sampling}, {arrivals: &arrivals, sampling: &sampling}}
	var buf bytes.Buffer
	cfg := DefaultConfig
	cfg.Duet, cfg.Samples, cfg.Warmup, cfg.Measurement = true, 20, time.Millisecond, 20*time.Millisecond
	bound := map[int]int{} // cpu → the thread bound to it
	var mu sync.Mutex
	e := &Engine{Config: cfg, Clock: probes.SampleClock{}, Out: ndjson.NewWriter(&buf), Progress: phaseWatch{&sampling},
		Cases: []Case{{Name: "a", Op: ops[0]}, {Name: "b", Op: ops[1]}},
		Duet: &Duet{CPUs: [2]int{3, 5}, Bind: func(cpu int) error {
			mu.Lock()
			defer mu.Unlock()
			bound[cpu] = unix.Gettid()
			return nil
		}}}
	if err := cfg.Validate(2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	if len(s.samples) != 40 {
		t.Fatalf("%d samples, want 40", len(s.samples))
	}
	byCase := [2][]ndjson.Sample{}
	leader := -1
	for _, smp := range s.samples {
		byCase[smp.Case] = append(byCase[smp.Case], smp)
		if smp.CPU == nil || smp.Overlap == nil {
			t.Fatalf("sample %+v lacks its cpu or overlap", smp)
		}
		want := []int{3, 5}[smp.Pos]
		if *smp.CPU != want {
			t.Errorf("case %d unit %d pos %d ran on cpu %d, want %d (the leader on the first)", smp.Case, smp.Unit, smp.Pos, *smp.CPU, want)
		}
		if smp.Pos == 0 && smp.Unit > 0 && smp.Case == leader {
			t.Errorf("unit %d: case %d leads again; a duet alternates", smp.Unit, smp.Case)
		}
		if smp.Pos == 0 {
			leader = smp.Case
		}
	}
	for c, op := range ops {
		if op.alone > 0 {
			t.Errorf("case %d: %d batches ran without the other side", c, op.alone)
		}
		if len(op.tids) != len(byCase[c]) {
			t.Fatalf("case %d: %d sampled batches, %d samples", c, len(op.tids), len(byCase[c]))
		}
		for i, smp := range byCase[c] {
			if op.tids[i] != bound[*smp.CPU] {
				t.Errorf("case %d unit %d ran on thread %d, not cpu %d's lane (%d)", c, smp.Unit, op.tids[i], *smp.CPU, bound[*smp.CPU])
			}
		}
	}
	if bound[3] == bound[5] {
		t.Error("both lanes on one thread")
	}
	if s.runs[0].Config.SliceNS != int64(time.Millisecond) {
		t.Errorf("slice %d ns: a duet's pair takes one batch's time, so 20 ms over 20 pairs is 1 ms", s.runs[0].Config.SliceNS)
	}
}

func TestDuetBindFailureEndsTheRun(t *testing.T) {
	clk := &fakeClock{}
	cfg := DefaultConfig
	cfg.Duet = true
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 100}, &fakeOp{clk: clk, perOp: 100})
	e.Duet = &Duet{CPUs: [2]int{0, 1}, Bind: func(cpu int) error {
		if cpu == 1 {
			return errors.New("invalid argument")
		}
		return nil
	}}
	_, err := e.Collect()
	if err == nil || !strings.Contains(err.Error(), "bind a lane to cpu 1: invalid argument") {
		t.Fatalf("err %v", err)
	}
	s := readStream(t, buf.Bytes())
	if len(s.ends) != 1 || s.ends[0].Reason != ndjson.EndFailed {
		t.Fatalf("ends %+v", s.ends)
	}
}

func TestDuetValidation(t *testing.T) {
	cfg := DefaultConfig
	cfg.Duet = true
	for _, c := range []struct {
		k    int
		seq  bool
		want string
	}{{3, false, "3 given"}, {1, false, "1 given"}, {2, true, "runs both sides of each pair at once"}} {
		cfg.Sequential = c.seq
		if err := cfg.Validate(c.k); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("k=%d sequential=%v: %v, want %q", c.k, c.seq, err, c.want)
		}
	}
	e, _ := newEngine(DefaultConfig, &fakeOp{clk: &fakeClock{}}, &fakeOp{clk: &fakeClock{}})
	e.Duet = &Duet{}
	if _, err := e.Collect(); err == nil || !strings.Contains(err.Error(), "only a duet run") {
		t.Errorf("CPUs without Config.Duet: %v", err)
	}
}

func TestOverlap(t *testing.T) {
	for _, c := range []struct {
		a, b duetRun
		want float64
	}{
		{duetRun{start: 0, end: 100}, duetRun{start: 10, end: 100}, 0.9},
		{duetRun{start: 10, end: 100}, duetRun{start: 0, end: 50}, 40.0 / 90},
		{duetRun{start: 0, end: 100}, duetRun{start: 100, end: 200}, 0},
		{duetRun{start: 0, end: 100}, duetRun{start: 0, end: 300}, 1},
		{duetRun{start: 5, end: 5}, duetRun{start: 0, end: 300}, 0},
	} {
		if got := overlap(c.a, c.b); got != c.want {
			t.Errorf("overlap(%+v, %+v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// sleepOp sleeps d per batch of any size, and counts its batches of one
// operation taken while the run samples (company for the other side).
type sleepOp struct {
	d        time.Duration
	sampling *atomic.Bool
	company  atomic.Int64
}

func (o *sleepOp) Run(n int64) (int64, error) {
	if n == 1 && o.sampling.Load() {
		o.company.Add(1)
		time.Sleep(o.d / 10)
		return int64(o.d / 10), nil
	}
	time.Sleep(o.d)
	return int64(o.d), nil
}

// TestDuetCompany: the side that ends first keeps running single untimed
// operations until the other ends, so the longer side never runs alone;
// the samples keep the timed batches' own times.
func TestDuetCompany(t *testing.T) {
	var sampling atomic.Bool
	fast, slow := &sleepOp{d: time.Millisecond, sampling: &sampling}, &sleepOp{d: 6 * time.Millisecond, sampling: &sampling}
	var buf bytes.Buffer
	cfg := DefaultConfig
	cfg.Duet, cfg.Samples, cfg.Warmup, cfg.Measurement, cfg.SizeSpread, cfg.MaxIterations = true, 10, time.Millisecond, 100*time.Millisecond, 1, 2
	e := &Engine{Config: cfg, Clock: probes.SampleClock{}, Out: ndjson.NewWriter(&buf), Progress: phaseWatch{&sampling},
		Cases: []Case{{Name: "fast", Op: fast}, {Name: "slow", Op: slow}},
		Duet:  &Duet{CPUs: [2]int{0, 1}, Bind: func(int) error { return nil }}}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if fast.company.Load() < 10 {
		t.Errorf("the fast side kept the slow one company %d times in 10 pairs", fast.company.Load())
	}
	var slowOv []float64
	for _, smp := range readStream(t, buf.Bytes()).samples {
		want := map[int]int64{0: int64(time.Millisecond), 1: int64(6 * time.Millisecond)}[smp.Case]
		if smp.WallNS != want {
			t.Errorf("case %d unit %d: wall %d, want its batch's own %d", smp.Case, smp.Unit, smp.WallNS, want)
		}
		if smp.Case == 1 {
			slowOv = append(slowOv, *smp.Overlap)
		}
	}
	// without company the slow side's overlap is at most 1/6; a lane
	// descheduled on a loaded machine may start late, so the median
	slices.Sort(slowOv)
	if med := slowOv[len(slowOv)/2]; med < 0.7 {
		t.Errorf("slow side's median overlap %.2f (%v); its company should have covered it", med, slowOv)
	}
}
