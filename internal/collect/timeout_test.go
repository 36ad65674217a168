package collect

import (
	"io"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// limitedOp is a fakeOp whose runs can be limited: it records the limits
// it was given and reports its longest batch per operation.
type limitedOp struct {
	fakeOp
	limits  []time.Duration
	longest time.Duration
}

func (o *limitedOp) Run(n int64) (int64, error) {
	ns, err := o.fakeOp.Run(n)
	o.longest = max(o.longest, time.Duration(ns/n))
	return ns, err
}
func (o *limitedOp) SetLimit(d time.Duration)  { o.limits = append(o.limits, d) }
func (o *limitedOp) LongestRun() time.Duration { return o.longest }

// TestRunLimit: the derived limit of a run before and after its case
// completed one, under a stopping rule and without, and the given ones.
func TestRunLimit(t *testing.T) {
	clk := &fakeClock{}
	op := &limitedOp{fakeOp: fakeOp{clk: clk, perOp: int64(2 * time.Second)}}
	e := &Engine{Config: DefaultConfig, Clock: clk, Cases: []Case{{Name: "a", Op: op}}}
	if got := e.runLimit(0); got != MinTimeout {
		t.Errorf("first run, default budget (600ms): %v, want the floor %v", got, MinTimeout)
	}
	e.Config.Measurement = 5 * time.Second
	if got := e.runLimit(0); got != 51*time.Second {
		t.Errorf("first run, 5.1 s budget: %v, want 51s", got)
	}
	e.Config.Until, clk.now = Until{Rule: "decision", MaxTime: 3 * time.Second}, int64(time.Second)
	if got := e.runLimit(0); got != 2*time.Second {
		t.Errorf("first run under a stopping rule, 1 s into 3: %v, want what is left, 2s", got)
	}
	clk.now = int64(5 * time.Second)
	if got := e.runLimit(0); got != MinFirstTimeout {
		t.Errorf("first run past the budget: %v, want %v", got, MinFirstTimeout)
	}
	op.Run(1)
	if got := e.runLimit(0); got != 20*time.Second {
		t.Errorf("after a 2 s run: %v, want 10 times it", got)
	}
	op.longest = time.Millisecond
	if got := e.runLimit(0); got != MinTimeout {
		t.Errorf("after a 1 ms run: %v, want the floor", got)
	}
	e.Config.Timeout = 700 * time.Millisecond
	if got := e.runLimit(0); got != 700*time.Millisecond {
		t.Errorf("given: %v", got)
	}
	e.Config.Timeout = NoTimeout
	if got := e.runLimit(0); got != 0 {
		t.Errorf("none: %v", got)
	}
}

// TestEveryBatchIsLimited: the engine sets a limited operation's limit
// before each of its batches, warm-up and calibration included.
func TestEveryBatchIsLimited(t *testing.T) {
	clk := &fakeClock{}
	a := &limitedOp{fakeOp: fakeOp{clk: clk, perOp: 1000}}
	b := &limitedOp{fakeOp: fakeOp{clk: clk, perOp: 1000}}
	cfg := fixedConfig
	cfg.Timeout, cfg.Samples = 3*time.Second, 10
	e := &Engine{Config: cfg, Clock: clk, Out: ndjson.NewWriter(io.Discard), Cases: []Case{{Name: "a", Op: a}, {Name: "b", Op: b}}}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	for _, op := range []*limitedOp{a, b} {
		if len(op.limits) != len(op.calls) || op.limits[0] != 3*time.Second {
			t.Errorf("%d limits for %d batches: %v", len(op.limits), len(op.calls), op.limits[:min(3, len(op.limits))])
		}
	}
	if got := e.Run.Config.Timeout; got != "3s" {
		t.Errorf("run record's timeout %q", got)
	}
}
