package main

import (
	"bytes"
	"math"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// stream writes records as an NDJSON stream.
func stream(t *testing.T, recs ...ndjson.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

// pairs is four units whose contender/reference ratios are 1.01, 1.03,
// 1.01 and 1.03, then a wild fifth unit (ratio 2).
func pairs() []ndjson.Record {
	var recs []ndjson.Record
	for u, c := range []float64{101, 103, 101, 103, 200} {
		recs = append(recs, &ndjson.Sample{Case: 0, Unit: u, OpNS: 100}, &ndjson.Sample{Case: 1, Unit: u, OpNS: c})
	}
	return recs
}

func TestOracleWidthCleanWindowsOnly(t *testing.T) {
	recs := append(pairs(),
		&ndjson.Window{Index: 0, FirstUnit: 0, Units: 4, Verdict: ndjson.WindowClean},
		&ndjson.Window{Index: 1, FirstUnit: 4, Units: 1, Verdict: ndjson.WindowContaminated})
	width, n, err := oracleWidth(stream(t, recs...))
	if err != nil || n != 4 {
		t.Fatalf("oracleWidth: %d pairs, %v; want the 4 of the clean window", n, err)
	}
	logs := []float64{math.Log(1.01), math.Log(1.03), math.Log(1.01), math.Log(1.03)}
	mean, sd := (logs[0]+logs[1])/2, math.Sqrt(4*math.Pow((logs[1]-logs[0])/2, 2)/3)
	half := 1.959964 * sd / 2
	if want := 100 * (math.Exp(mean+half) - math.Exp(mean-half)); math.Abs(width-want) > 1e-9 {
		t.Fatalf("width %g, want %g", width, want)
	}
}

func TestOracleWidthWithoutWindows(t *testing.T) {
	if _, n, err := oracleWidth(stream(t, pairs()...)); err != nil || n != 5 {
		t.Fatalf("oracleWidth: %d pairs, %v; want all 5 without window records", n, err)
	}
}

func TestOracleWidthNoCleanPairs(t *testing.T) {
	recs := append(pairs(), &ndjson.Window{FirstUnit: 0, Units: 5, Verdict: ndjson.WindowUnjudged})
	if width, n, err := oracleWidth(stream(t, recs...)); err != nil || n != 0 || !math.IsNaN(width) {
		t.Fatalf("oracleWidth = %g, %d, %v; want NaN, 0 pairs", width, n, err)
	}
}

func TestMoreTimeCountsTheFixedCost(t *testing.T) {
	// 2 ms of start-up and 1 ns per step: 18,000,000 steps take 20 ms, and
	// 2% more is 400 µs, 400,000 steps (2% more steps would be 1.8% more
	// time).
	if got := moreTime(18_000_000, 2e6, 1, 2); got != 18_400_000 {
		t.Errorf("moreTime = %d, want 18400000", got)
	}
	// Unknown costs: 2% more steps.
	if got := moreTime(1000, 0, 0, 2); got != 1020 {
		t.Errorf("moreTime without costs = %d, want 1020", got)
	}
}
