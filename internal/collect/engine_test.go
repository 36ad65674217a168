package collect

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// fakeClock advances only when a fake operation runs.
type fakeClock struct{ now int64 }

func (c *fakeClock) Now() int64 { return c.now }

// fakeOp costs a fixed time per operation plus a fixed time per batch.
type fakeOp struct {
	clk      *fakeClock
	perOp    int64
	perBatch int64
	calls    []int64 // batch sizes, in order
	failAt   int     // fail on this call number (1-based); 0 never
	onCall   func(call int)
}

func (o *fakeOp) Run(n int64) (int64, error) {
	o.calls = append(o.calls, n)
	if o.onCall != nil {
		o.onCall(len(o.calls))
	}
	if o.failAt == len(o.calls) {
		return 0, errors.New("exit status 3")
	}
	ns := o.perBatch + n*o.perOp
	o.clk.now += ns
	return ns, nil
}

type stream struct {
	runs         []ndjson.Run
	calibrations []ndjson.Calibration
	samples      []ndjson.Sample
	ends         []ndjson.End
	windows      []ndjson.Window
	looks        []ndjson.Look
}

func readStream(t *testing.T, b []byte) stream {
	t.Helper()
	r := ndjson.NewReader(bytes.NewReader(b), "out")
	var s stream
	for {
		l, err := r.Next()
		if err == io.EOF {
			return s
		}
		if err != nil {
			t.Fatal(err)
		}
		switch l.Type {
		case ndjson.TypeRun:
			var v ndjson.Run
			mustDecode(t, r, l, &v)
			s.runs = append(s.runs, v)
		case ndjson.TypeCalibration:
			var v ndjson.Calibration
			mustDecode(t, r, l, &v)
			s.calibrations = append(s.calibrations, v)
		case ndjson.TypeSample:
			var v ndjson.Sample
			mustDecode(t, r, l, &v)
			s.samples = append(s.samples, v)
		case ndjson.TypeEnd:
			var v ndjson.End
			mustDecode(t, r, l, &v)
			s.ends = append(s.ends, v)
		case ndjson.TypeWindow:
			var v ndjson.Window
			mustDecode(t, r, l, &v)
			s.windows = append(s.windows, v)
		case ndjson.TypeLook:
			var v ndjson.Look
			mustDecode(t, r, l, &v)
			s.looks = append(s.looks, v)
		}
	}
}

func mustDecode(t *testing.T, r *ndjson.Reader, l ndjson.Line, v any) {
	t.Helper()
	if err := r.Decode(l, v); err != nil {
		t.Fatal(err)
	}
}

// newEngine makes an engine for ops. A config with the automatic sample
// count gets the seeds' fixed 50 instead, which most tests reason about;
// autoEngine keeps it.
func newEngine(cfg Config, ops ...*fakeOp) (*Engine, *bytes.Buffer) {
	if cfg.Samples == AutoSamples {
		cfg.Samples = 50
	}
	return autoEngine(cfg, ops...)
}

func autoEngine(cfg Config, ops ...*fakeOp) (*Engine, *bytes.Buffer) {
	var buf bytes.Buffer
	e := &Engine{Config: cfg, Clock: ops[0].clk, Out: ndjson.NewWriter(&buf)}
	for i, op := range ops {
		e.Cases = append(e.Cases, Case{Name: string(rune('a' + i)), Op: op})
	}
	return e, &buf
}

func TestEqualTimeSlices(t *testing.T) {
	clk := &fakeClock{}
	fast := &fakeOp{clk: clk, perOp: 1000}
	slow := &fakeOp{clk: clk, perOp: 4000}
	cfg := fixedConfig
	cfg.Measurement = 400 * time.Millisecond // 2 cases x 50 samples: 4 ms slices
	e, buf := newEngine(cfg, fast, slow)
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	if s.calibrations[0].Iterations != 4000 || s.calibrations[1].Iterations != 1000 {
		t.Fatalf("equal time: iterations %d and %d, want 4000 and 1000",
			s.calibrations[0].Iterations, s.calibrations[1].Iterations)
	}
	if s.calibrations[0].TargetNS != 4_000_000 || s.runs[0].Config.SliceNS != 4_000_000 {
		t.Fatalf("slice %d, want 4 ms: the budget is divided, not multiplied", s.calibrations[0].TargetNS)
	}
	if end.Reason != ndjson.EndCompleted || end.Units != 50 || end.Samples[0] != 50 || end.Samples[1] != 50 {
		t.Fatalf("end %+v", end)
	}
	if len(s.samples) != 100 || s.samples[0].OpNS != 1000 && s.samples[0].OpNS != 4000 {
		t.Fatalf("%d samples, first %+v", len(s.samples), s.samples[0])
	}
	if s.runs[0].Design != ndjson.DesignPaired || s.runs[0].Batching != "equal-time" {
		t.Fatalf("run %+v", s.runs[0])
	}
}

func TestPairsAreAdjacentAndBalanced(t *testing.T) {
	clk := &fakeClock{}
	e, buf := newEngine(DefaultConfig, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 1000})
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	refFirst := 0
	for i := 0; i < len(s.samples); i += 2 {
		a, b := s.samples[i], s.samples[i+1]
		if a.Unit != b.Unit || a.Pos != 0 || b.Pos != 1 || a.Case == b.Case || b.Seq != a.Seq+1 {
			t.Fatalf("pair %d not adjacent: %+v %+v", i/2, a, b)
		}
		if a.Case == 0 {
			refFirst++
		}
	}
	if refFirst != 25 {
		t.Fatalf("%d of 50 pairs reference-first, want 25", refFirst)
	}
}

func TestSharedIterationsCapAtEightSlices(t *testing.T) {
	clk := &fakeClock{}
	fast := &fakeOp{clk: clk, perOp: 100}
	slow := &fakeOp{clk: clk, perOp: 10_000} // 100x slower
	cfg := fixedConfig
	cfg.Batching = SharedIterations
	cfg.Measurement = 400 * time.Millisecond // 4 ms slices
	cfg.MinSample = 10 * time.Millisecond
	e, buf := newEngine(cfg, fast, slow)
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	// The fast side's batch would need 100,000 iterations to reach the
	// 10 ms floor; the slow side reaches 8 x 4 ms = 32 ms at 3200
	// iterations, where calibration stops.
	for _, c := range s.calibrations {
		if c.Iterations != 3200 || c.Capped != "slower-side" {
			t.Fatalf("shared: %+v, want 3200 capped by the slower side", c)
		}
	}
	for _, sm := range s.samples {
		if sm.Iter != 3200 {
			t.Fatalf("sample with %d iterations", sm.Iter)
		}
	}
}

// TestSharedIterationsFillTheUnit: one count for both sides, the one
// whose pair lasts two slices, so the slower side gets more than a slice
// and the faster less; and at least enough for the faster side's batch to
// reach the shortest batch allowed.
func TestSharedIterationsFillTheUnit(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Batching = SharedIterations
	cfg.Measurement = 400 * time.Millisecond // 4 ms slices, 8 ms pairs
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 3000})
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	for _, c := range s.calibrations {
		if c.Iterations != 2000 || c.Capped != "" {
			t.Fatalf("shared: %+v, want 2000 for both (2 ms and 6 ms)", c)
		}
	}
	if s.runs[0].Batching != "shared-iterations" {
		t.Fatalf("batching %q", s.runs[0].Batching)
	}
	clk = &fakeClock{}
	cfg.MinSample = 5 * time.Millisecond
	e, buf = newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 3000})
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if c := readStream(t, buf.Bytes()).calibrations[0]; c.Iterations != 5000 {
		t.Fatalf("floor: %+v, want 5000 (the faster side's 5 ms)", c)
	}
}

func TestMaxIterationsAndMinSample(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.MaxIterations = 7
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 10})
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if c := readStream(t, buf.Bytes()).calibrations[0]; c.Iterations != 7 || c.Capped != "max-iterations" {
		t.Fatalf("got %+v", c)
	}
	// A slice shorter than the minimum sample time is raised to it.
	clk = &fakeClock{}
	cfg = fixedConfig
	cfg.Measurement = 5 * time.Millisecond // 100 µs slice for 50 samples
	cfg.MinSample = time.Millisecond
	e, buf = newEngine(cfg, &fakeOp{clk: clk, perOp: 10})
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if c := readStream(t, buf.Bytes()).calibrations[0]; c.Iterations != 100_000 {
		t.Fatalf("min sample time: %+v, want 100000", c)
	}
}

func TestSamplingBudget(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Measurement = 100 * time.Millisecond
	cfg.MaxSampling = 10 * time.Millisecond // slices are 1 ms per side: 5 pairs would fit
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 1000})
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	if end.Reason != ndjson.EndBudget || end.Units != minKeepUnits || len(readStream(t, buf.Bytes()).samples) != 20 {
		t.Fatalf("budget: %+v; at least ten pairs are always kept", end)
	}
	clk = &fakeClock{}
	cfg.MaxSampling = 30 * time.Millisecond
	e, _ = newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 1000})
	end, _ = e.Collect()
	if end.Units != 15 || end.SamplingNS < 30_000_000 || end.SamplingNS > 32_000_000 {
		t.Fatalf("budget 30 ms with 2 ms pairs: %+v", end)
	}
}

func TestSequentialBudgetKeepsCommonCount(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Sequential = true
	cfg.Measurement = 150 * time.Millisecond // 1 ms slices
	cfg.MaxSampling = 60 * time.Millisecond  // 20 ms per case
	ops := []*fakeOp{{clk: clk, perOp: 1000}, {clk: clk, perOp: 1000}, {clk: clk, perOp: 1000}}
	e, buf := newEngine(cfg, ops...)
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	if s.runs[0].Design != ndjson.DesignSequential || end.Units != 20 {
		t.Fatalf("sequential: design %s, end %+v", s.runs[0].Design, end)
	}
	for c := 0; c < 3; c++ {
		if end.Samples[c] != 20 {
			t.Fatalf("case %d kept %d samples, want 20", c, end.Samples[c])
		}
	}
	for i, sm := range s.samples {
		if sm.Case != i/20 || sm.Unit != i%20 {
			t.Fatalf("sample %d out of block order: %+v", i, sm)
		}
	}
}

func TestRoundsCoverEveryPosition(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Samples = 12
	ops := []*fakeOp{{clk: clk, perOp: 10}, {clk: clk, perOp: 20}, {clk: clk, perOp: 30}, {clk: clk, perOp: 40}}
	e, buf := newEngine(cfg, ops...)
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	pos := map[[2]int]int{}
	for _, sm := range readStream(t, buf.Bytes()).samples {
		pos[[2]int{sm.Case, sm.Pos}]++
	}
	for c := 0; c < 4; c++ {
		for p := 0; p < 4; p++ {
			if pos[[2]int{c, p}] != 3 {
				t.Fatalf("case %d at position %d: %d times, want 3", c, p, pos[[2]int{c, p}])
			}
		}
	}
}

func TestFailureWritesEndAndStops(t *testing.T) {
	clk := &fakeClock{}
	bad := &fakeOp{clk: clk, perOp: 1000, failAt: 10}
	e, buf := newEngine(DefaultConfig, &fakeOp{clk: clk, perOp: 1000}, bad)
	var cleaned bool
	e.Hooks.Cleanup = func() error { cleaned = true; return nil }
	end, err := e.Collect()
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Case != "b" {
		t.Fatalf("err = %v", err)
	}
	s := readStream(t, buf.Bytes())
	if len(s.ends) != 1 || end.Reason != ndjson.EndFailed || !strings.Contains(end.Error, "exit status 3") {
		t.Fatalf("end %+v", end)
	}
	if !cleaned {
		t.Fatal("cleanup must run after a failure")
	}
	if len(s.samples)%2 != 0 {
		t.Fatal("half a pair was written")
	}
}

func TestStopDiscardsUnitInFlight(t *testing.T) {
	clk := &fakeClock{}
	a := &fakeOp{clk: clk, perOp: 1000}
	b := &fakeOp{clk: clk, perOp: 1000}
	e, buf := newEngine(DefaultConfig, a, b)
	b.onCall = func(call int) {
		if call == 20 {
			e.Stop("interrupt")
		}
	}
	end, err := e.Collect()
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v", err)
	}
	s := readStream(t, buf.Bytes())
	if end.Reason != ndjson.EndInterrupted || end.Error != "interrupt" || len(s.ends) != 1 {
		t.Fatalf("end %+v", end)
	}
	if len(s.samples)%2 != 0 || len(s.samples) != 2*end.Units {
		t.Fatalf("%d samples for %d units", len(s.samples), end.Units)
	}
}

func TestHooksOrder(t *testing.T) {
	clk := &fakeClock{}
	var log []string
	a, b := &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 3000}
	a.onCall = func(int) { log = append(log, "run a") }
	b.onCall = func(int) { log = append(log, "run b") }
	e, _ := newEngine(DefaultConfig, a, b)
	name := func(c int) string { return e.Cases[c].Name }
	e.Hooks = Hooks{
		Setup:    func() error { log = append(log, "setup"); return nil },
		Prepare:  func(c int) error { log = append(log, "prepare "+name(c)); return nil },
		Conclude: func(c int) error { log = append(log, "conclude "+name(c)); return nil },
		Cleanup:  func() error { log = append(log, "cleanup"); return nil },
	}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if log[0] != "setup" || log[len(log)-1] != "cleanup" {
		t.Fatalf("setup/cleanup not once at the ends: %v", log[:3])
	}
	for i := 1; i < len(log)-1; i += 3 {
		c := log[i+1][len("run "):]
		if log[i] != "prepare "+c || log[i+2] != "conclude "+c {
			t.Fatalf("each batch must be bracketed by its own case's prepare and conclude: %v", log[i:i+3])
		}
	}
	if got := strings.Count(strings.Join(log, ","), "run a"); got != len(a.calls) {
		t.Fatalf("%d bracketed batches of a, %d batches", got, len(a.calls))
	}
}

// TestFailingConcludeStops: a failing --conclude ends the run as failed,
// like a failing --prepare, and cleanup still runs.
func TestFailingConcludeStops(t *testing.T) {
	clk := &fakeClock{}
	e, buf := newEngine(DefaultConfig, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 1000})
	calls, cleaned := 0, false
	e.Hooks.Conclude = func(c int) error {
		if calls++; calls == 7 {
			return errors.New("exit status 4")
		}
		return nil
	}
	e.Hooks.Cleanup = func() error { cleaned = true; return nil }
	end, err := e.Collect()
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Case != HookConclude {
		t.Fatalf("err = %v, want a --conclude failure", err)
	}
	if end.Reason != ndjson.EndFailed || !cleaned || len(readStream(t, buf.Bytes()).ends) != 1 {
		t.Fatalf("end %+v, cleaned %v", end, cleaned)
	}
}

func TestValidate(t *testing.T) {
	cfg := fixedConfig
	cfg.Samples = 9
	var fe *field.Error
	if err := cfg.Validate(2); !errors.As(err, &fe) || fe.Field != "Samples" || fe.Value != 9 ||
		err.Error() != "Samples 9 out of range: use auto or 10 to 1000" {
		t.Fatalf("got %v", err)
	}
	cfg = fixedConfig
	cfg.Sequential = true
	if err := cfg.Validate(1); err == nil {
		t.Fatal("sequential with one case accepted")
	}
	if err := cfg.Validate(2); err != nil || cfg.Design(2) != "sequential" {
		t.Fatalf("sequential pair refused: %v", err)
	}
	if err := DefaultConfig.Validate(17); err == nil {
		t.Fatal("17 cases accepted")
	}
}

// fakeObserver records the order of hooks and fills one axis.
type fakeObserver struct{ log *[]string }

func (o fakeObserver) Before(c int) { *o.log = append(*o.log, "before") }
func (o fakeObserver) After(c int, n int64, s *ndjson.Sample) {
	*o.log = append(*o.log, "after")
	v := float64(c)
	s.Axes = map[string]ndjson.AxisValue{"cpu": {S: "collected", V: &v}}
	s.Tele = &ndjson.Telemetry{CPUPct: 100}
}

func TestObserverBracketsEverySampledBatch(t *testing.T) {
	clk := &fakeClock{}
	var log []string
	op := &fakeOp{clk: clk, perOp: 1000}
	op.onCall = func(int) { log = append(log, "run") }
	e, buf := newEngine(DefaultConfig, op, &fakeOp{clk: clk, perOp: 1000})
	e.Observer = fakeObserver{&log}
	e.Hooks.Prepare = func(int) error { log = append(log, "prepare"); return nil }
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	for _, sm := range s.samples {
		if sm.Axes["cpu"].V == nil || *sm.Axes["cpu"].V != float64(sm.Case) || sm.Tele == nil {
			t.Fatalf("sample without observed axes: %+v", sm)
		}
	}
	// Warmup and calibration batches are not observed; sampled ones are,
	// with the prepare hook outside the bracket.
	joined := strings.Join(log, " ")
	if strings.Count(joined, "prepare before run after") != 50 {
		t.Fatalf("%d bracketed batches of case a, want 50", strings.Count(joined, "prepare before run after"))
	}
}

func TestCheckStopsAfterFirstUnit(t *testing.T) {
	clk := &fakeClock{}
	e, buf := newEngine(DefaultConfig, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 1000})
	calls := 0
	e.Check = func(first []ndjson.Sample) error {
		calls++
		if len(first) != 2 {
			t.Errorf("check got %d samples, want the first pair", len(first))
		}
		return errors.New("cycles: unsupported event")
	}
	end, err := e.Collect()
	var re *RequirementError
	if !errors.As(err, &re) || calls != 1 {
		t.Fatalf("err %v after %d checks", err, calls)
	}
	s := readStream(t, buf.Bytes())
	if end.Reason != ndjson.EndFailed || !strings.Contains(end.Error, "cycles: unsupported event") || len(s.samples) != 2 || len(s.ends) != 1 {
		t.Fatalf("end %+v with %d samples", end, len(s.samples))
	}
}

// selfOp costs a fixed start-up per batch that its own report excludes.
type selfOp struct {
	fakeOp
	last int64
}

func (o *selfOp) Run(n int64) (int64, error) {
	o.last = n * o.perOp
	return o.fakeOp.Run(n)
}
func (o *selfOp) SelfElapsed() (float64, error) { return float64(o.last), nil }

func TestSelfTimerCalibratesMeasuredWorkAndTimesSamples(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Measurement = 500 * time.Millisecond // 5 ms slices
	cfg.Samples = 50
	a := &selfOp{fakeOp: fakeOp{clk: clk, perOp: 1000, perBatch: 10_000_000}}
	b := &selfOp{fakeOp: fakeOp{clk: clk, perOp: 2000, perBatch: 10_000_000}}
	var buf bytes.Buffer
	e := &Engine{Config: cfg, Clock: clk, Out: ndjson.NewWriter(&buf), SelfTimer: true,
		Cases: []Case{{Name: "a", Op: a}, {Name: "b", Op: b}}}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	// The 10 ms start-up is not what the slice is filled with.
	if s.calibrations[0].Iterations != 5000 || s.calibrations[1].Iterations != 2500 {
		t.Fatalf("iterations %d and %d, want 5000 and 2500", s.calibrations[0].Iterations, s.calibrations[1].Iterations)
	}
	for _, sm := range s.samples {
		want := float64(1000 * (sm.Case + 1))
		if sm.SelfNS == nil || sm.OpNS != want || sm.WallNS <= int64(*sm.SelfNS) {
			t.Fatalf("sample %+v: op_ns must come from the self timer", sm)
		}
	}
}

// The automatic sample count fills the budget with batches of at least
// one operation of the slowest case, 50 to 1000 of them, and says so in
// the run and calibration records. It is planned on the warm-up's
// estimates (the slice) and fitted to the calibrated batches, whose
// whole operations can make a unit longer than the slices planned.
func TestAutoSamples(t *testing.T) {
	for _, c := range []struct {
		perOp      int64
		measure    time.Duration
		plan, want int
	}{
		{20_000_000, 20 * time.Second, 500, 500},  // 20 ms runs: 20 s / (2 cases x 20 ms)
		{20_000_000, 60 * time.Second, 1000, 857}, // capped at 30 ms slices: 30 + 40 ms units fit 857 times
		{20_000_000, 1 * time.Second, 50, 50},     // slower than the budget allows: the floor
		{2_000_000, 2 * time.Second, 200, 181},    // 2 ms runs: 5 ms slices, 5 + 6 ms units
		{100, 5 * time.Second, 500, 500},          // fast: 5 ms batches
	} {
		clk := &fakeClock{}
		cfg := fixedConfig
		cfg.Measurement = c.measure
		e, buf := autoEngine(cfg, &fakeOp{clk: clk, perOp: c.perOp / 2}, &fakeOp{clk: clk, perOp: c.perOp})
		end, err := e.Collect()
		if err != nil {
			t.Fatal(err)
		}
		s := readStream(t, buf.Bytes())
		if end.Units != c.want || s.calibrations[0].Samples != c.want {
			t.Errorf("%d ns ops in %v: %d units (calibration says %d), want %d", c.perOp, c.measure, end.Units, s.calibrations[0].Samples, c.want)
		}
		if s.runs[0].Config.Samples != 0 || s.runs[0].Config.SamplesRule == "" {
			t.Errorf("run record samples %d rule %q: want 0 and the rule", s.runs[0].Config.Samples, s.runs[0].Config.SamplesRule)
		}
		if slice := s.calibrations[1].TargetNS; slice != int64(c.measure)/int64(2*c.plan) {
			t.Errorf("slice %d, want the budget over 2 x %d batches", slice, c.plan)
		}
	}
}

// An automatic --samples keeps the run to its budget. The slice is the
// slowest case's operation, so a batch of whole operations at least a
// slice long is two whenever the sides differ at all: a count planned for
// one made a -t 5s run of a 20 ms program last 10 s. The count is fitted
// to the calibrated batches, at the lower of each case's two estimates,
// so a calibration batch that a burst slowed does not end the run early.
func TestAutoSamplesKeepTheBudget(t *testing.T) {
	for _, batching := range []Batching{SharedIterations, EqualTime} {
		for _, burst := range []bool{false, true} {
			clk := &fakeClock{}
			cfg := DefaultConfig
			cfg.Batching, cfg.SizeSpread = batching, 1
			cfg.Measurement = 10 * time.Second
			a := &fakeOp{clk: clk, perOp: 20_000_000}
			b := &fakeOp{clk: clk, perOp: 20_300_000} // 1.5% slower
			e, buf := autoEngine(cfg, a, b)
			warmed, slowed := false, 0
			e.Warmed = func() { warmed = true }
			b.onCall = func(int) { // b's calibration batch 50 ms slower
				switch {
				case burst && warmed && slowed == 0:
					b.perBatch, slowed = 50_000_000, 1
				case slowed == 1:
					b.perBatch, slowed = 0, 2
				}
			}
			end, err := e.Collect()
			if err != nil {
				t.Fatal(err)
			}
			var timed int64
			for _, sm := range readStream(t, buf.Bytes()).samples {
				timed += sm.WallNS
			}
			if timed > int64(cfg.Measurement) || timed < int64(cfg.Measurement)*9/10 {
				t.Errorf("%s (burst %v): %d units timed %v, want about the budget %v", batching, burst, end.Units, time.Duration(timed), cfg.Measurement)
			}
		}
	}
}

// A batch that spends untimed overhead (a process started per batch under
// its own timer) is planned at least twice as long as that overhead, the
// least the warm-up saw: 5 ms batches of a Go test binary that takes 15 ms
// to start would spend three quarters of the run starting processes. The
// count is then fitted to the timed work, as without overhead; where the
// overhead is below half of 5 ms nothing changes.
func TestAutoSamplesBatchOverhead(t *testing.T) {
	for _, c := range []struct {
		perBatch   int64
		plan, want int // the slices' count (of the 10 s budget over 2 cases); the units run
	}{
		{0, 1000, 1000},         // 5 ms batches (the floor): 1000 fit, the cap
		{2_000_000, 1000, 1000}, // 2 ms of overhead: 4 ms < 5 ms, the floor holds
		{15_000_000, 166, 165},  // 30 ms batches: 10 s / (2 x 30 ms); whole operations make them 30.12 ms
		{60_000_000, 50, 50},    // 120 ms batches: 41 fit, the count's minimum
	} {
		clk := &fakeClock{}
		cfg := fixedConfig
		cfg.Measurement = 10 * time.Second
		a := &selfOp{fakeOp: fakeOp{clk: clk, perOp: 1000, perBatch: c.perBatch}}
		b := &selfOp{fakeOp: fakeOp{clk: clk, perOp: 1000, perBatch: c.perBatch}}
		slow := 0
		b.onCall = func(call int) { // the first batch reads the program back from disk
			if call == 1 {
				b.perBatch, slow = c.perBatch+40_000_000, 1
			} else if slow == 1 {
				b.perBatch, slow = c.perBatch, 2
			}
		}
		var buf bytes.Buffer
		first := &firstSampling{}
		e := &Engine{Config: cfg, Clock: clk, Out: ndjson.NewWriter(&buf), SelfTimer: true,
			Cases: []Case{{Name: "a", Op: a}, {Name: "b", Op: b}}, Progress: first}
		end, err := e.Collect()
		if err != nil {
			t.Fatal(err)
		}
		s := readStream(t, buf.Bytes())
		// The sampling's first status expects what the sampling then took
		// (a fake clock: exactly, but for the rounding of whole operations),
		// and says when the count's minimum takes longer than the budget.
		if st := first.status; st == nil || math.Abs(float64(st.ETA-time.Duration(end.SamplingNS))) > 0.01*float64(end.SamplingNS) {
			t.Errorf("%v overhead: first sampling status %+v, sampling took %v", time.Duration(c.perBatch), st, time.Duration(end.SamplingNS))
		} else if least := c.want == 50; (st.Note != "") != least ||
			least && st.Note != "the sampling takes about 16s, longer than Measurement 10s: 50 units of about 320ms each, the fewest an automatic count takes (Samples sets the count)" {
			t.Errorf("%v overhead: sampling took %v; note %q", time.Duration(c.perBatch), time.Duration(end.SamplingNS), st.Note)
		}
		if slice := s.calibrations[0].TargetNS; slice != int64(cfg.Measurement)/int64(2*c.plan) {
			t.Errorf("%v overhead: slice %v, want the budget over 2 x %d batches", time.Duration(c.perBatch), time.Duration(slice), c.plan)
		}
		if end.Units != c.want {
			t.Errorf("%v overhead: %d units, want %d", time.Duration(c.perBatch), end.Units, c.want)
		}
		var timed float64
		for _, sm := range s.samples {
			timed += *sm.SelfNS
		}
		if c.plan > 50 && (timed > float64(cfg.Measurement) || timed < float64(cfg.Measurement)*0.9) {
			t.Errorf("%v overhead: %v timed, want about the budget", time.Duration(c.perBatch), time.Duration(timed))
		}
	}
}

// TestSamplingEstimate: the sampling's first status expects what the
// sampling then takes, paired and sequential (whose units are each case's
// batches), and the note names the count's minimum when the budget holds
// fewer units; none when the count was fitted to the budget.
func TestSamplingEstimate(t *testing.T) {
	for _, c := range []struct {
		sequential bool
		budget     time.Duration
		note       string
	}{
		{false, 2 * time.Second, "the sampling takes about 8s, longer than Measurement 2s: 50 units of about 160ms each, the fewest an automatic count takes (Samples sets the count)"},
		{true, 2 * time.Second, "the sampling takes about 8s, longer than Measurement 2s: 50 units of about 160ms each, the fewest an automatic count takes (Samples sets the count)"},
		{false, 20 * time.Second, ""},
	} {
		clk := &fakeClock{}
		cfg := fixedConfig
		cfg.Measurement, cfg.Sequential = c.budget, c.sequential
		first := &firstSampling{}
		var buf bytes.Buffer
		e := &Engine{Config: cfg, Clock: clk, Out: ndjson.NewWriter(&buf), Progress: first,
			Cases: []Case{{Name: "a", Op: &fakeOp{clk: clk, perOp: 80_000_000}}, {Name: "b", Op: &fakeOp{clk: clk, perOp: 80_000_000}}}}
		end, err := e.Collect()
		if err != nil {
			t.Fatal(err)
		}
		if st := first.status; st == nil || st.ETA != time.Duration(end.SamplingNS) || st.Note != c.note {
			t.Errorf("sequential %v, %v: sampling took %v; first status %+v, want note %q", c.sequential, c.budget, time.Duration(end.SamplingNS), first.status, c.note)
		}
	}
}

// firstSampling keeps the first status of the sampling phase.
type firstSampling struct{ status *Status }

func (f *firstSampling) Update(s Status) {
	if s.Phase == PhaseSampling && f.status == nil {
		f.status = &s
	}
}

// fixedConfig is DefaultConfig with equal timed slices and one fixed size
// per case, which most tests here reason about exactly.
var fixedConfig = func() Config {
	c := DefaultConfig
	c.Batching, c.SizeSpread = EqualTime, 1
	return c
}()
