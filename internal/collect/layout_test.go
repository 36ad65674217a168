package collect

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestLayoutPadSequence(t *testing.T) {
	const units = 4096
	seen := map[int]bool{}
	sum := 0
	for u := range units {
		p := LayoutPad(1, u)
		if p < 0 || p > MaxLayoutPad {
			t.Fatalf("unit %d: pad %d outside 0..%d", u, p, MaxLayoutPad)
		}
		if p != LayoutPad(1, u) {
			t.Fatalf("unit %d: pad not reproducible", u)
		}
		seen[p] = true
		sum += p
	}
	// Uniform on 0..4095 drawn 4096 times: about 63% of the values
	// appear, and the mean is 2047.5 with a standard error of 18.5.
	if len(seen) < 2400 {
		t.Errorf("%d distinct pads in %d units, want about 2590", len(seen), units)
	}
	if mean := float64(sum) / units; mean < 1950 || mean > 2150 {
		t.Errorf("mean pad %.1f, want about 2047.5", mean)
	}
	// Other seeds give other sequences.
	same := 0
	for u := range 100 {
		if LayoutPad(1, u) == LayoutPad(2, u) {
			same++
		}
	}
	if same > 2 {
		t.Errorf("seeds 1 and 2 agree on %d of 100 units", same)
	}
}

// paddedOp records the padding each of its batches ran with.
type paddedOp struct {
	*fakeOp
	pad  int
	pads []int
}

func (o *paddedOp) SetLayoutPad(n int) error { o.pad = n; return nil }
func (o *paddedOp) Run(n int64) (int64, error) {
	o.pads = append(o.pads, o.pad)
	return o.fakeOp.Run(n)
}

func layoutEngine(cfg Config, k int) (*Engine, []*paddedOp, *bytes.Buffer) {
	clk := &fakeClock{}
	var buf bytes.Buffer
	e := &Engine{Config: cfg, Clock: clk, Out: ndjson.NewWriter(&buf)}
	var ops []*paddedOp
	for i := range k {
		op := &paddedOp{fakeOp: &fakeOp{clk: clk, perOp: 1000 * int64(i+1)}}
		ops = append(ops, op)
		e.Cases = append(e.Cases, Case{Name: string(rune('a' + i)), Op: op})
	}
	return e, ops, &buf
}

func TestRandomizedLayoutPerUnit(t *testing.T) {
	for _, k := range []int{1, 2, 3} {
		cfg := fixedConfig
		cfg.Samples, cfg.Seed, cfg.RandomizeLayout = 20, 7, true
		e, ops, buf := layoutEngine(cfg, k)
		if _, err := e.Collect(); err != nil {
			t.Fatal(err)
		}
		s := readStream(t, buf.Bytes())
		if len(s.samples) != 20*k {
			t.Fatalf("k=%d: %d samples", k, len(s.samples))
		}
		byUnit := map[int]int{}
		for _, rec := range s.samples {
			if rec.LayoutPad == nil {
				t.Fatalf("k=%d: sample %d has no layout_pad", k, rec.Seq)
			}
			if want := LayoutPad(7, rec.Unit); *rec.LayoutPad != want {
				t.Errorf("k=%d unit %d: layout_pad %d, want %d", k, rec.Unit, *rec.LayoutPad, want)
			}
			if p, ok := byUnit[rec.Unit]; ok && p != *rec.LayoutPad {
				t.Errorf("k=%d unit %d: cases padded %d and %d", k, rec.Unit, p, *rec.LayoutPad)
			}
			byUnit[rec.Unit] = *rec.LayoutPad
		}
		distinct := map[int]bool{}
		for _, p := range byUnit {
			distinct[p] = true
		}
		if len(distinct) < 15 {
			t.Errorf("k=%d: %d distinct pads over 20 units", k, len(distinct))
		}
		// The operations ran their timed batches with the recorded
		// padding: the last 20 batches of each are the samples.
		for c, op := range ops {
			timed := op.pads[len(op.pads)-20:]
			for u, p := range timed {
				if p != byUnit[u] {
					t.Errorf("k=%d case %d unit %d: ran with pad %d, recorded %d", k, c, u, p, byUnit[u])
				}
			}
		}
	}
}

func TestFixedLayoutRecordsNoPad(t *testing.T) {
	cfg := fixedConfig
	cfg.Samples = 10
	e, ops, buf := layoutEngine(cfg, 2)
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	for _, rec := range readStream(t, buf.Bytes()).samples {
		if rec.LayoutPad != nil {
			t.Fatalf("sample %d: layout_pad %d without randomization", rec.Seq, *rec.LayoutPad)
		}
	}
	for _, op := range ops {
		for _, p := range op.pads {
			if p != 0 {
				t.Fatalf("a batch ran padded (%d) without randomization", p)
			}
		}
	}
}

func TestRandomizedLayoutNeedsPaddedOps(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.RandomizeLayout = true
	e, _ := newEngine(cfg, &fakeOp{clk: clk, perOp: 10}, &fakeOp{clk: clk, perOp: 10})
	_, err := e.Collect()
	if err == nil || !strings.Contains(err.Error(), "padded environment") {
		t.Fatalf("err = %v, want a refusal", err)
	}
}
