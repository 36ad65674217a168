package collect

import (
	"math"
	"testing"
	"time"
)

// TestSizesVaryPerUnitAlikeForEveryCase: by default every case of a unit
// runs one size, the calibrated one scaled by the unit's factor, which
// varies from unit to unit and is recorded on each sample.
func TestSizesVaryPerUnitAlikeForEveryCase(t *testing.T) {
	clk := &fakeClock{}
	cfg := DefaultConfig
	cfg.Measurement = 400 * time.Millisecond
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 3000})
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	if s.runs[0].Batching != "shared-iterations" || s.runs[0].Config.SizeSpread != DefaultSizeSpread {
		t.Fatalf("run batching %q spread %v", s.runs[0].Batching, s.runs[0].Config.SizeSpread)
	}
	base := s.calibrations[0].Iterations
	byUnit := map[int]int64{}
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, sm := range s.samples {
		want := int64(math.Round(float64(base) * SizeFactor(cfg.Seed, sm.Unit, DefaultSizeSpread)))
		if sm.Iter != want {
			t.Fatalf("unit %d case %d ran %d, want %d", sm.Unit, sm.Case, sm.Iter, want)
		}
		if n, ok := byUnit[sm.Unit]; ok && n != sm.Iter {
			t.Fatalf("unit %d: sides ran %d and %d", sm.Unit, n, sm.Iter)
		}
		byUnit[sm.Unit] = sm.Iter
		lo, hi = min(lo, sm.Iter), max(hi, sm.Iter)
		if op := float64(sm.WallNS) / float64(sm.Iter); sm.OpNS != op {
			t.Fatalf("op_ns %v is not the batch over its own size (%v)", sm.OpNS, op)
		}
	}
	if float64(hi)/float64(lo) < 2.5 {
		t.Fatalf("sizes %d..%d around %d: a spread of 4 should cover most of a factor of 4", lo, hi, base)
	}
}

// TestEqualTimeSizesVaryByOneFactor: under equal timed slices each case
// keeps its own calibrated size, scaled by the unit's common factor.
func TestEqualTimeSizesVaryByOneFactor(t *testing.T) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.SizeSpread = 8
	cfg.Measurement = 400 * time.Millisecond
	e, buf := newEngine(cfg, &fakeOp{clk: clk, perOp: 1000}, &fakeOp{clk: clk, perOp: 4000})
	if _, err := e.Collect(); err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	for _, sm := range s.samples {
		base := s.calibrations[sm.Case].Iterations
		want := int64(math.Round(float64(base) * SizeFactor(cfg.Seed, sm.Unit, 8)))
		if sm.Iter != want {
			t.Fatalf("unit %d case %d ran %d, want %d", sm.Unit, sm.Case, sm.Iter, want)
		}
	}
}

func TestSizeFactor(t *testing.T) {
	if f := SizeFactor(1, 3, 1); f != 1 {
		t.Fatalf("spread 1: factor %v", f)
	}
	const spread, n = 4.0, 200_000
	mean := (2 - 0.5) / math.Log(4)
	var sum float64
	var below int
	for u := 0; u < n; u++ {
		f := SizeFactor(7, u, spread)
		if f < 0.5/mean-1e-12 || f > 2/mean+1e-12 {
			t.Fatalf("unit %d: factor %v outside [%v, %v]", u, f, 0.5/mean, 2/mean)
		}
		if f*mean < 1 {
			below++
		}
		sum += f
	}
	if m := sum / n; math.Abs(m-1) > 0.005 {
		t.Fatalf("mean factor %v, want 1 (the budget kept on average)", m)
	}
	// log-uniform: half the units below the geometric middle
	if frac := float64(below) / n; math.Abs(frac-0.5) > 0.005 {
		t.Fatalf("%v of the factors below the middle, want half", frac)
	}
	if SizeFactor(7, 5, spread) != SizeFactor(7, 5, spread) || SizeFactor(7, 5, spread) == SizeFactor(8, 5, spread) {
		t.Fatal("a factor must be a function of seed and unit")
	}
}

func TestUnitSizeBounds(t *testing.T) {
	e := &Engine{Config: DefaultConfig}
	e.Config.MaxIterations = 10
	for u := 0; u < 100; u++ {
		if n := e.unitSize(u, 1); n < 1 || n > 2 {
			t.Fatalf("base 1 in unit %d: %d", u, n)
		}
		if n := e.unitSize(u, 9); n > 10 {
			t.Fatalf("over --max-iterations: %d", n)
		}
		if n := e.unitSize(u, math.MaxInt64/2); n != 10 {
			t.Fatalf("huge base: %d", n)
		}
	}
}

func TestValidateSizes(t *testing.T) {
	for _, spread := range []float64{0, 0.5, 65, math.NaN()} {
		c := DefaultConfig
		c.SizeSpread = spread
		if err := c.Validate(2); err == nil {
			t.Errorf("--size-spread %v accepted", spread)
		}
	}
	c := DefaultConfig
	c.Batching = "per-case"
	if err := c.Validate(2); err == nil {
		t.Error("unknown batching accepted")
	}
}
