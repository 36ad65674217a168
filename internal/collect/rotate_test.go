package collect

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// rotateEngine collects two fake cases in 25 pairs, rotating every
// `every` units, and records the orders Rotate saw and the batch count of
// each case at every rotation.
func rotateEngine(every int) (*Engine, *bytes.Buffer, []*fakeOp, *[][]int) {
	clk := &fakeClock{}
	ops := []*fakeOp{{clk: clk, perOp: 1000}, {clk: clk, perOp: 1100}}
	e, buf := newEngine(Config{Batching: SharedIterations, SizeSpread: 1, Samples: 25, Measurement: 1e8, MinSample: 1000, MaxIterations: 1 << 40, Seed: 3, Rotate: every}, ops[0], ops[1])
	started := &[][]int{}
	e.Rotate = func(b Block) (Started, error) {
		*started = append(*started, b.Order)
		return Started{Dropped: &ndjson.Dropped{Pages: 10 * b.Block, Resident: b.Block}}, nil
	}
	return e, buf, ops, started
}

// TestRotation: every 10 units the processes are replaced (blocks 1 and 2
// in the design's orientations), each case gets one untimed batch after
// each start, samples name their block, and a block record closes each
// block with its sample counts, the last one shorter; the budget and the
// sample count are the run's, not the blocks'.
func TestRotation(t *testing.T) {
	e, buf, ops, started := rotateEngine(10)
	first := &firstSampling{}
	e.Progress = first
	end, err := e.Collect()
	if err != nil || end.Units != 25 {
		t.Fatalf("end %+v, %v", end, err)
	}
	// The sampling's first estimate counts the two block starts' untimed
	// batches: on a fake clock, the sampling's own time.
	if st := first.status; st == nil || st.ETA != time.Duration(end.SamplingNS) {
		t.Errorf("first sampling status %+v, sampling took %v", first.status, time.Duration(end.SamplingNS))
	}
	s := readStream(t, buf.Bytes())
	if s.runs[0].Config.Rotation != "every 10 units" {
		t.Errorf("rotation %q", s.runs[0].Config.Rotation)
	}
	if len(*started) != 2 || !slices.Equal((*started)[0], BlockAt(2, 1, 0, 3).Order) || !slices.Equal((*started)[1], BlockAt(2, 2, 0, 3).Order) {
		t.Errorf("started %v", *started)
	}
	for i, smp := range s.samples {
		if want := smp.Unit / 10; smp.Proc == nil || smp.Proc.Block != want || smp.Proc.Attempt != 0 {
			t.Fatalf("sample %d (unit %d): proc %+v, want block %d", i, smp.Unit, smp.Proc, want)
		}
	}
	blocks := blockRecords(t, buf.Bytes())
	want := [][]int{{10, 10}, {10, 10}, {5, 5}}
	if len(blocks) != 3 {
		t.Fatalf("%d block records: %+v", len(blocks), blocks)
	}
	for i, b := range blocks {
		if b.Block != i || b.Status != ndjson.BlockComplete || !slices.Equal(b.Samples, want[i]) {
			t.Errorf("block %d: %+v", i, b)
		}
		if i > 0 && b.Orientation == blocks[i-1].Orientation {
			t.Errorf("blocks %d and %d both %q", i-1, i, b.Orientation)
		}
		// What starting a block did is the record of that block: none for
		// block 0, whose processes calibration used.
		if (i == 0) != (b.Dropped == nil) || (i > 0 && (b.Dropped.Pages != 10*i || b.Dropped.Resident != i)) {
			t.Errorf("block %d: dropped %+v", i, b.Dropped)
		}
	}
	// The same run without rotation: two batches fewer per case, no blocks.
	plain, pbuf, pops, _ := rotateEngine(0)
	if _, err := plain.Collect(); err != nil {
		t.Fatal(err)
	}
	for c := range ops {
		if got, want := len(ops[c].calls), len(pops[c].calls)+2; got != want {
			t.Errorf("case %d ran %d batches, want %d (one warm batch per start)", c, got, want)
		}
	}
	if b := blockRecords(t, pbuf.Bytes()); len(b) != 0 || readStream(t, pbuf.Bytes()).samples[0].Proc != nil {
		t.Errorf("without rotation: %d block records, proc %+v", len(b), readStream(t, pbuf.Bytes()).samples[0].Proc)
	}
}

// TestRotationAuto resolves the units per block from the sample count.
func TestRotationAuto(t *testing.T) {
	for _, c := range []struct {
		samples int
		until   bool
		want    int
		least   int
	}{{50, false, 10, 10}, {119, false, 10, 10}, {240, false, 20, 10}, {1000, false, 84, 10}, {1000, true, 42, 10}, {100, true, 10, 10},
		{50, false, 5, 1}, {100, true, 5, 1}, {5, false, 1, 1}, {1000, false, 84, 1}} {
		cfg := Config{Rotate: AutoRotation}
		if c.until {
			cfg.Until.Rule = "decision"
		}
		if got := cfg.rotationUnits(c.samples, c.least); got != c.want {
			t.Errorf("%d samples (until %v, least %d): %d units per block, want %d", c.samples, c.until, c.least, got, c.want)
		}
	}
}

// TestRotationFailure: a worker that cannot be restarted fails the run
// with the block named, after the block before it was closed.
func TestRotationFailure(t *testing.T) {
	e, buf, _, _ := rotateEngine(10)
	e.Rotate = func(Block) (Started, error) { return Started{}, errors.New("no such file") }
	end, err := e.Collect()
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Case != "block 1" || end.Reason != ndjson.EndFailed || end.Units != 10 {
		t.Fatalf("end %+v, err %v", end, err)
	}
	if b := blockRecords(t, buf.Bytes()); len(b) != 1 || b[0].Block != 0 || !slices.Equal(b[0].Samples, []int{10, 10}) {
		t.Errorf("blocks %+v", b)
	}
}

// TestRotationRefusals: rotation with process blocks or a sequential run.
func TestRotationRefusals(t *testing.T) {
	for _, cfg := range []Config{
		{Rotate: 5, Invocations: 2},
		{Rotate: AutoRotation, Sequential: true},
		{Rotate: -2},
	} {
		c := DefaultConfig
		c.Rotate, c.Invocations, c.Sequential = cfg.Rotate, cfg.Invocations, cfg.Sequential
		if err := c.Validate(2); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

// TestRotationRelease: what a block start holds (the page-placement
// ballast) is released once per start, after every case's untimed batch
// has read its program back and before the block's first timed unit.
func TestRotationRelease(t *testing.T) {
	e, _, ops, _ := rotateEngine(10)
	var at [][2]int // each case's batch count when the start was made and when released
	var made [][2]int
	e.Rotate = func(Block) (Started, error) {
		made = append(made, [2]int{len(ops[0].calls), len(ops[1].calls)})
		return Started{Release: func() { at = append(at, [2]int{len(ops[0].calls), len(ops[1].calls)}) }}, nil
	}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if len(at) != 2 || len(made) != 2 {
		t.Fatalf("released %d times for %d starts", len(at), len(made))
	}
	for i := range at {
		if at[i] != [2]int{made[i][0] + 1, made[i][1] + 1} {
			t.Errorf("start %d: made at batches %v, released at %v; want one untimed batch of each case between", i, made[i], at[i])
		}
	}
}

// TestWarmed: the hook that frees what the first drop held is called
// once, after warm-up has run every case and before any sample.
func TestWarmed(t *testing.T) {
	e, buf, ops, _ := rotateEngine(10)
	var at [][2]int
	var sampled bool
	e.Warmed = func() {
		at = append(at, [2]int{len(ops[0].calls), len(ops[1].calls)})
		sampled = bytes.Contains(buf.Bytes(), []byte(`"type":"sample"`))
	}
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	if len(at) != 1 || at[0][0] < 1 || at[0][1] < 1 || sampled {
		t.Errorf("warmed at batches %v (sampled before: %v); want once, after every case ran, before any sample", at, sampled)
	}
}
