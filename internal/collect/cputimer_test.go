package collect

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// cpuOp uses cpuPerOp of CPU time per operation out of its wall time
// (perOp): the rest it spends waiting.
type cpuOp struct {
	fakeOp
	cpuPerOp int64
	last     int64
	err      error
}

func (o *cpuOp) Run(n int64) (int64, error) {
	o.last = n * o.cpuPerOp
	return o.fakeOp.Run(n)
}
func (o *cpuOp) CPUTime() (int64, error) { return o.last, o.err }

func cpuEngine(cfg Config, ops ...Operation) (*Engine, *bytes.Buffer) {
	var buf bytes.Buffer
	if cfg.Samples == AutoSamples {
		cfg.Samples = 50
	}
	e := &Engine{Config: cfg, Clock: ops[0].(*cpuOp).clk, Out: ndjson.NewWriter(&buf), CPUTimer: true,
		Run: ndjson.Run{Mode: "worker", Timer: &ndjson.Timer{Kind: ndjson.TimerCPU, ResolutionNS: 1000}}}
	for i, op := range ops {
		e.Cases = append(e.Cases, Case{Name: string(rune('a' + i)), Op: op})
	}
	return e, &buf
}

func TestCPUTimerTimesSamplesAndKeepsWallAsAxis(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Measurement = 500 * time.Millisecond // 5 ms slices
	busy := &cpuOp{fakeOp: fakeOp{clk: clk, perOp: 1000}, cpuPerOp: 1000}
	sleepy := &cpuOp{fakeOp: fakeOp{clk: clk, perOp: 10_000}, cpuPerOp: 100}
	e, buf := cpuEngine(cfg, busy, sleepy)
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	// Wall time fills the slice: the sleepy case's batch is sized by its
	// 10 µs of elapsed time per operation, not its 100 ns of CPU time.
	if s.calibrations[0].Iterations != 5000 || s.calibrations[1].Iterations != 500 {
		t.Fatalf("iterations %d and %d, want 5000 and 500 (wall time fills the slice)",
			s.calibrations[0].Iterations, s.calibrations[1].Iterations)
	}
	// The floor is the CPU timer's resolution over the batch.
	if got := s.calibrations[1].FloorNS; got != 1000.0/500 {
		t.Errorf("floor %g, want the timer's 1000 ns over 500 iterations", got)
	}
	for _, sm := range s.samples {
		cpu := []int64{1000, 100}[sm.Case]
		wall := []float64{1000, 10_000}[sm.Case]
		if sm.CPUNS == nil || *sm.CPUNS != cpu*sm.Iter || sm.OpNS != float64(cpu) {
			t.Fatalf("sample %+v: op_ns must be CPU time per operation", sm)
		}
		w, ok := sm.Axes[axes.Wall]
		if !ok || w.V == nil || *w.V != wall || sm.WallNS != int64(wall)*sm.Iter {
			t.Fatalf("sample %+v: wall time per operation must be the axis wall", sm)
		}
		if sm.SelfNS != nil {
			t.Fatalf("sample %+v: a CPU-timed sample has no self_ns", sm)
		}
	}
}

func TestCPUTimerFailureStopsTheRun(t *testing.T) {
	clk := &fakeClock{}
	op := &cpuOp{fakeOp: fakeOp{clk: clk, perOp: 1000}, cpuPerOp: 1000, err: errors.New("clock gone")}
	e, _ := cpuEngine(DefaultConfig, op)
	end, err := e.Collect()
	var fe *FailedError
	if !errors.As(err, &fe) || end.Reason != ndjson.EndFailed || !strings.Contains(end.Error, "clock gone") {
		t.Fatalf("Collect = %v, end %+v; want the CPU timer's error as a failed run", err, end)
	}
}

func TestCPUTimerNeedsCPUTimedOperations(t *testing.T) {
	clk := &fakeClock{}
	var buf bytes.Buffer
	e := &Engine{Config: DefaultConfig, Clock: clk, Out: ndjson.NewWriter(&buf), CPUTimer: true,
		Cases: []Case{{Name: "a", Op: &fakeOp{clk: clk, perOp: 1000}}}}
	if _, err := e.Collect(); !errors.Is(err, errNotCPUTimed) {
		t.Fatalf("Collect = %v, want %v", err, errNotCPUTimed)
	}
}
