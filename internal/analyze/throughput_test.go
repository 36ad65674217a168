package analyze

import (
	"math"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestThroughputView(t *testing.T) {
	d := newRunData(ndjson.Run{Cases: []ndjson.Case{{Name: "old", WorkUnits: 100}, {Name: "new", WorkUnits: 200}, {Name: "none"}}}, nil)
	s := &ndjson.Summary{Mean: 1e6, MeanCI: [2]float64{0.8e6, 1.25e6}}
	got := d.throughput(0, s)
	// 100 units per 1 ms = 100,000 units/s; the slower end of the mean is the lower throughput.
	if got == nil || got.UnitsPerSec != 1e5 || got.CI != [2]float64{8e4, 1.25e5} || got.WorkUnits != 100 {
		t.Errorf("throughput = %+v", got)
	}
	if d.throughput(2, s) != nil {
		t.Error("a case without work units has no throughput")
	}
	// new is 1.25x faster per operation and completes twice the work: 2.5x the throughput.
	k := &ndjson.Comparison{Speedup: 1.25, SpeedupCI: [2]float64{1.2, 1.3}, ThresholdPct: 1}
	tc := d.throughputChange(1, k)
	if tc == nil || math.Abs(tc.ImprovementPct-150) > 1e-9 || math.Abs(tc.CI[0]-140) > 1e-9 || math.Abs(tc.CI[1]-160) > 1e-9 || tc.Verdict != "contender better" {
		t.Errorf("throughput change = %+v", tc)
	}
	// Slower per operation with the same work: worse throughput, direction-aware.
	d.run.Cases[1].WorkUnits = 100
	tc = d.throughputChange(1, &ndjson.Comparison{Speedup: 0.9, SpeedupCI: [2]float64{0.85, 0.95}, ThresholdPct: 1})
	if tc.ImprovementPct > -9.99 || tc.Verdict != "reference better" {
		t.Errorf("slower: %+v", tc)
	}
	if d.throughputChange(2, k) != nil {
		t.Error("a comparison needs work units on both sides")
	}
}
