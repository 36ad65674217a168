package tests

import (
	"bytes"
	"io"
	"math"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/pkg/ndjson"
)

// sizeCheck is `sizecheck STREAM`: every sample ran its case's calibrated
// size scaled by its unit's factor (collect.SizeFactor of the run's seed
// and spread), every case of a unit ran one size when the run's batching
// is shared, and sizes varied across units when the spread is over 1.
func sizeCheck(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 || neg {
		ts.Fatalf("usage: sizecheck STREAM")
	}
	run, base, samples := readSizedStream(ts, args[0])
	spread := max(run.Config.SizeSpread, 1)
	byUnit, distinct := map[int]int64{}, map[int64]bool{}
	for _, s := range samples {
		want := int64(math.Round(float64(base[s.Case]) * collect.SizeFactor(run.Seed, s.Unit, spread)))
		if s.Iter != max(want, 1) {
			ts.Fatalf("unit %d case %d ran %d operations, want %d (calibrated %d, spread %g)", s.Unit, s.Case, s.Iter, want, base[s.Case], spread)
		}
		if n, ok := byUnit[s.Unit]; ok && n != s.Iter && run.Batching == "shared-iterations" {
			ts.Fatalf("unit %d: the cases ran %d and %d operations under shared batching", s.Unit, n, s.Iter)
		}
		byUnit[s.Unit], distinct[s.Iter] = s.Iter, true
	}
	if spread > 1 && len(distinct) < 2 {
		ts.Fatalf("spread %g, but every sample ran %d operations", spread, samples[0].Iter)
	}
}

func readSizedStream(ts *testscript.TestScript, path string) (ndjson.Run, map[int]int64, []ndjson.Sample) {
	r := ndjson.NewReader(bytes.NewReader([]byte(ts.ReadFile(path))), path)
	var run ndjson.Run
	base := map[int]int64{}
	var samples []ndjson.Sample
	for {
		l, err := r.Next()
		if err == io.EOF {
			return run, base, samples
		}
		ts.Check(err)
		switch l.Type {
		case ndjson.TypeRun:
			ts.Check(r.Decode(l, &run))
		case ndjson.TypeCalibration:
			var c ndjson.Calibration
			ts.Check(r.Decode(l, &c))
			base[c.Case] = c.Iterations
		case ndjson.TypeSample:
			var s ndjson.Sample
			ts.Check(r.DecodeSample(l, &s))
			samples = append(samples, s)
		}
	}
}
