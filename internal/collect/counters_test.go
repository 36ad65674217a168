package collect

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// fakeCounter records what it was asked to count and counts iters.
type fakeCounter struct {
	iters    []int64
	prepared bool
	onCount  func()
	execs    int // executions per count, each announced by prepare
}

func (f *fakeCounter) Count(_ context.Context, c int, iters int64, prepare func() error) ndjson.Counter {
	f.iters = append(f.iters, iters)
	f.prepared = prepare != nil
	if f.onCount != nil {
		f.onCount()
	}
	for range f.execs {
		if err := prepare(); err != nil {
			return ndjson.Counter{Status: "probe_failed", Reason: err.Error()}
		}
	}
	v := float64(iters)
	return ndjson.Counter{Axis: "instructions_sim", Unit: "instructions/op", Status: "collected", Value: &v}
}

// TestCountersBetweenCalibrationAndSamples: one counter record per case,
// after the calibration records and before the first sample, naming the
// run and the case, from the calibrated batch sizes.
func TestCountersBetweenCalibrationAndSamples(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Measurement = 400 * time.Millisecond
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 4000})
	e.Run.RunID = "r-c"
	e.Hooks.Prepare = func(int) error { return nil }
	f := &fakeCounter{}
	e.Counters = []CounterProbe{f}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if len(f.iters) != 2 || f.iters[0] != 4000 || f.iters[1] != 1000 || !f.prepared {
		t.Fatalf("counted %v (prepare passed: %v), want the calibrated 4000 and 1000", f.iters, f.prepared)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		typ := line[strings.Index(line, `"type":"`)+8:]
		types = append(types, typ[:strings.IndexByte(typ, '"')])
	}
	if got := strings.Join(types[:6], " "); got != "run calibration calibration counter counter sample" {
		t.Fatalf("record order %q", got)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"run_id":"r-c","case":1,"name":"b","axis":"instructions_sim"`)) {
		t.Fatalf("counter records do not name the run and case:\n%s", buf.String())
	}
}

// TestCountersStop: Stop during counting ends the run as interrupted,
// with no sample.
func TestCountersStop(t *testing.T) {
	clk := &fakeClock{}
	e, buf := newEngine(DefaultConfig, &fakeOp{clk: clk, perOp: 1000})
	f := &fakeCounter{}
	f.onCount = func() { e.Stop("interrupted by SIGINT") }
	e.Counters = []CounterProbe{f}
	end, err := e.Collect()
	if err != ErrInterrupted || end.Reason != ndjson.EndInterrupted || bytes.Contains(buf.Bytes(), []byte(`"sample"`)) {
		t.Fatalf("got %v, end %+v", err, end)
	}
}

// TestCounterExecutionsBracketed: every execution a counter makes is
// preceded by its case's prepare and followed by its conclude, and a
// failing last conclude fails the count.
func TestCounterExecutionsBracketed(t *testing.T) {
	clk := &fakeClock{}
	e, buf := newEngine(DefaultConfig, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 1000})
	counting := false
	var log []string
	e.Hooks.Prepare = func(c int) error {
		if counting {
			log = append(log, "p"+e.Cases[c].Name)
		}
		return nil
	}
	e.Hooks.Conclude = func(c int) error {
		if counting {
			log = append(log, "c"+e.Cases[c].Name)
		}
		if counting && c == 1 && len(log) == 8 {
			return errors.New("exit status 4")
		}
		return nil
	}
	f := &fakeCounter{execs: 2}
	f.onCount = func() { counting = true }
	e.Counters = []CounterProbe{f}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log[:8], " "); got != "pa ca pa ca pb cb pb cb" {
		t.Fatalf("hooks around the counted executions: %q", got)
	}
	recs := strings.Count(buf.String(), `"type":"counter"`)
	failed := strings.Count(buf.String(), `"name":"b","axis":"instructions_sim","unit":"instructions/op","status":"probe_failed","reason":"Hooks.Conclude: exit status 4"`)
	if recs != 2 || failed != 1 {
		t.Fatalf("%d counter records, %d failed by --conclude:\n%s", recs, failed, buf.String())
	}
}
