package collect

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// blockRecords are a collected stream's block records.
func blockRecords(t *testing.T, b []byte) []ndjson.Block {
	t.Helper()
	r := ndjson.NewReader(bytes.NewReader(b), "out")
	var out []ndjson.Block
	for {
		l, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.Type == ndjson.TypeBlock {
			var v ndjson.Block
			mustDecode(t, r, l, &v)
			out = append(out, v)
		}
	}
}

// blockEngine collects k fake cases in n blocks of 10 samples and records
// the order Start saw.
func blockEngine(k, n int) (*Engine, *bytes.Buffer, []*fakeOp, *[][]int) {
	clk := &fakeClock{}
	ops := make([]*fakeOp, k)
	for i := range ops {
		ops[i] = &fakeOp{clk: clk, perOp: 1000 * int64(i+1)}
	}
	e, buf := newEngine(Config{Batching: EqualTime, SizeSpread: 1, Samples: 10, Measurement: 1e8, MinSample: 1000, MaxIterations: 1 << 40, Seed: 3, Invocations: n}, ops...)
	started := &[][]int{}
	e.Process = &ProcessPlan{Blocks: Blocks(k, n, 3), Start: func(b Block) (Started, error) {
		*started = append(*started, b.Order)
		return Started{PIDs: []int{100 + len(*started), 200 + len(*started)}[:min(k, 2)]}, nil
	}}
	return e, buf, ops, started
}

// TestBlocksTwoCases: four AB/BA blocks, orientation alternating, each
// with its own warm-up, calibration and samples marked with the block;
// units and seq continue across blocks; one run and one end record.
func TestBlocksTwoCases(t *testing.T) {
	e, buf, _, started := blockEngine(2, 4)
	end, err := e.Collect()
	if err != nil || end.Reason != ndjson.EndCompleted || end.Units != 40 || !slices.Equal(end.Samples, []int{40, 40}) {
		t.Fatalf("end %+v, %v", end, err)
	}
	s := readStream(t, buf.Bytes())
	blocks := blockRecords(t, buf.Bytes())
	if len(s.runs) != 1 || len(s.ends) != 1 || len(blocks) != 4 || len(s.calibrations) != 8 {
		t.Fatalf("%d runs, %d ends, %d blocks, %d calibrations", len(s.runs), len(s.ends), len(blocks), len(s.calibrations))
	}
	rc := s.runs[0].Config
	if rc.Invocations != 4 || rc.ProcessDesign != "ab-ba" || rc.ProcessCycle != 2 {
		t.Fatalf("run config %+v", rc)
	}
	for i, b := range blocks {
		if b.Block != i || b.Status != ndjson.BlockComplete || !slices.Equal(b.Samples, []int{10, 10}) || b.PIDs[0] != 101+i {
			t.Fatalf("block %d: %+v", i, b)
		}
		if i > 0 && b.Orientation == blocks[i-1].Orientation {
			t.Fatalf("blocks %d and %d both %s", i-1, i, b.Orientation)
		}
		if !slices.Equal((*started)[i], b.Order) {
			t.Fatalf("block %d started %v, recorded %v", i, (*started)[i], b.Order)
		}
	}
	for i, smp := range s.samples {
		b := i / 20
		if smp.Proc == nil || smp.Proc.Block != b || smp.Seq != i || smp.Unit != i/2 {
			t.Fatalf("sample %d: %+v", i, smp)
		}
		if i%20 == 0 && smp.Case != blocks[b].Order[0] {
			t.Fatalf("block %d's first pair starts with case %d, order %v", b, smp.Case, blocks[b].Order)
		}
	}
	for i, c := range s.calibrations {
		if c.Proc == nil || c.Proc.Block != i/2 {
			t.Fatalf("calibration %d: %+v", i, c)
		}
	}
}

// TestBlocksWilliams: three cases over a supercycle of 12 blocks, the
// order of each block its first round's.
func TestBlocksWilliams(t *testing.T) {
	e, buf, _, _ := blockEngine(3, 12)
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	blocks := blockRecords(t, buf.Bytes())
	if len(blocks) != 12 || s.runs[0].Config.ProcessDesign != "williams" || s.runs[0].Config.ProcessCycle != 12 {
		t.Fatalf("%d blocks, run config %+v", len(blocks), s.runs[0].Config)
	}
	pos := map[[2]int]int{}
	for i, b := range blocks {
		first := []int{}
		for _, smp := range s.samples[i*30 : i*30+3] {
			first = append(first, smp.Case)
		}
		if !slices.Equal(first, b.Order) {
			t.Fatalf("block %d: first round %v, order %v", i, first, b.Order)
		}
		for p, c := range b.Order {
			pos[[2]int{c, p}]++
		}
	}
	for cp, n := range pos {
		if n != 4 {
			t.Fatalf("case %d at position %d in %d blocks, want 4", cp[0], cp[1], n)
		}
	}
}

// TestBlockFailure: a case failing in the second block ends the run;
// that block's record says failed, the first stays complete.
func TestBlockFailure(t *testing.T) {
	e, buf, ops, _ := blockEngine(2, 4)
	ops[1].onCall = func(call int) {
		if e.proc != nil && e.proc.Block == 1 && ops[1].failAt == 0 {
			ops[1].failAt = call + 3
		}
	}
	end, err := e.Collect()
	var fe *FailedError
	if !errors.As(err, &fe) || end.Reason != ndjson.EndFailed {
		t.Fatalf("end %+v, %v", end, err)
	}
	blocks := blockRecords(t, buf.Bytes())
	if len(blocks) != 2 || blocks[0].Status != ndjson.BlockComplete || blocks[1].Status != ndjson.BlockFailed || !strings.Contains(blocks[1].Reason, "exit status 3") {
		t.Fatalf("blocks %+v", blocks)
	}
}

// TestBlockInterrupted: Stop during the third block marks it interrupted
// with the stop's reason; no later block starts.
func TestBlockInterrupted(t *testing.T) {
	e, buf, ops, started := blockEngine(2, 4)
	ops[0].onCall = func(int) {
		if e.proc != nil && e.proc.Block == 2 && len(ops[0].calls) > 0 {
			e.Stop("interrupted by SIGINT")
		}
	}
	end, err := e.Collect()
	if !errors.Is(err, ErrInterrupted) || end.Reason != ndjson.EndInterrupted {
		t.Fatalf("end %+v, %v", end, err)
	}
	blocks := blockRecords(t, buf.Bytes())
	if len(blocks) != 3 || blocks[2].Status != ndjson.BlockInterrupted || blocks[2].Reason != "interrupted by SIGINT" || len(*started) != 3 {
		t.Fatalf("blocks %+v, started %v", blocks, *started)
	}
}

// TestBlockStartFails: a block whose processes cannot start is failed
// before any of its batches runs.
func TestBlockStartFails(t *testing.T) {
	e, buf, _, _ := blockEngine(2, 2)
	e.Process.Start = func(Block) (Started, error) { return Started{}, errors.New("no handshake") }
	_, err := e.Collect()
	blocks := blockRecords(t, buf.Bytes())
	if err == nil || len(blocks) != 1 || blocks[0].Status != ndjson.BlockFailed || !strings.Contains(blocks[0].Reason, "block 0: no handshake") {
		t.Fatalf("%v, blocks %+v", err, blocks)
	}
}

// TestBlocksResumed: a resumed plan writes no run record, continues units
// and seq, and adds the earlier sessions' counts to its end record.
func TestBlocksResumed(t *testing.T) {
	e, buf, _, _ := blockEngine(2, 2)
	e.Run.RunID = "r"
	e.Process.Resumed, e.Process.FirstUnit, e.Process.FirstSeq = true, 25, 50
	e.Process.Prior = ndjson.End{Units: 25, Samples: []int{25, 25}, ElapsedNS: 7}
	e.Process.Blocks = []Block{BlockAt(2, 3, 0, 3), BlockAt(2, 2, 1, 3)}
	end, err := e.Collect()
	if err != nil || end.Units != 45 || !slices.Equal(end.Samples, []int{45, 45}) || end.RunID != "r" {
		t.Fatalf("end %+v, %v", end, err)
	}
	s := readStream(t, buf.Bytes())
	if len(s.runs) != 0 || s.samples[0].Unit != 25 || s.samples[0].Seq != 50 || *s.samples[20].Proc != (ndjson.ProcessRef{Block: 2, Attempt: 1}) {
		t.Fatalf("%d runs, first sample %+v, block 2 %+v", len(s.runs), s.samples[0], s.samples[20])
	}
}

// TestInvocationsRefusals: blocks need a fixed, paired or round schedule.
func TestInvocationsRefusals(t *testing.T) {
	for cfg, want := range map[*Config]string{
		{Invocations: 2, Sequential: true}:               "drop Sequential",
		{Invocations: 2, Until: Until{Rule: "decision"}}: "Invocations with Until.Rule",
		{Invocations: MaxInvocations + 1}:                "out of range",
	} {
		c := DefaultConfig
		c.Invocations, c.Sequential, c.Until = cfg.Invocations, cfg.Sequential, cfg.Until
		if err := c.validateInvocations(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", cfg, err, want)
		}
	}
}
