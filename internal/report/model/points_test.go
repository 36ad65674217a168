package model

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// pairedStream is a run of units pairs, its samples in the order given.
func pairedStream(t *testing.T, units []int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "big", Design: ndjson.DesignPaired, Seed: 7,
		Cases: []ndjson.Case{{Index: 0, Name: "a"}, {Index: 1, Name: "b"}}}
	check(t, w.Write(run))
	for k, u := range units {
		for c := range 2 {
			check(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: c, Seq: 2*k + c, Iter: 1, WallNS: 100, OpNS: float64(100 + u%7),
				Tele: &ndjson.Telemetry{CPUPct: 99, RSSBytes: 1 << 20}}))
		}
	}
	return buf.Bytes()
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func loadKeep(t *testing.T, stream []byte, keep Keep) *Run {
	t.Helper()
	s, err := Load(ndjson.NewReader(bytes.NewReader(stream), "in"), keep)
	check(t, err)
	return s.Runs[0]
}

// TestPointsKeepEveryUnitUnderTheBound: a run within MaxPoints keeps a
// point of every sample, in stream order.
func TestPointsKeepEveryUnitUnderTheBound(t *testing.T) {
	units := []int{3, 1, 2, 0}
	r := loadKeep(t, pairedStream(t, units), KeepPoints)
	if r.Thinned || len(r.Points) != 8 || r.Samples != nil || r.Times != nil {
		t.Fatalf("thinned %v, %d points, %d samples, %d times", r.Thinned, len(r.Points), r.Samples.Len(), len(r.Times))
	}
	for i, p := range r.Points {
		if p.Unit != units[i/2] || p.Case != i%2 || p.Seq != i || p.Block != -1 || !p.Tele {
			t.Errorf("point %d: %+v", i, p)
		}
	}
}

// TestPointsSampleWholeUnits: a run over MaxPoints keeps whole units, at
// most MaxPoints points, the same units whatever order they came in.
func TestPointsSampleWholeUnits(t *testing.T) {
	n := MaxPoints // twice the bound in samples
	units := make([]int, n)
	for i := range units {
		units[i] = i
	}
	r := loadKeep(t, pairedStream(t, units), KeepPoints)
	if !r.Thinned || len(r.Points) != MaxPoints {
		t.Fatalf("thinned %v, %d points, want %d", r.Thinned, len(r.Points), MaxPoints)
	}
	kept := map[int]int{}
	for i, p := range r.Points {
		kept[p.Unit]++
		if i > 0 && p.Seq < r.Points[i-1].Seq {
			t.Fatalf("point %d out of stream order", i)
		}
	}
	for u, k := range kept {
		if k != 2 {
			t.Fatalf("unit %d kept with %d of its 2 samples", u, k)
		}
	}
	slices.Reverse(units)
	again := loadKeep(t, pairedStream(t, units), KeepPoints)
	other := map[int]int{}
	for _, p := range again.Points {
		other[p.Unit]++
	}
	if fmt.Sprint(kept) != fmt.Sprint(other) {
		t.Error("the units kept depend on the order the samples came in")
	}
}

// TestLoadKeeps: each Keep keeps its part of the samples and no other.
func TestLoadKeeps(t *testing.T) {
	stream := pairedStream(t, []int{0, 1, 2})
	for _, tc := range []struct {
		keep                   Keep
		samples, times, points int
	}{{0, 0, 0, 0}, {KeepSamples, 6, 0, 0}, {KeepTimes, 0, 6, 0}, {KeepPoints, 0, 0, 6}, {KeepAll, 6, 6, 6}} {
		r := loadKeep(t, stream, tc.keep)
		if r.Samples.Len() != tc.samples || len(r.Times) != tc.times || len(r.Points) != tc.points {
			t.Errorf("keep %b: %d samples, %d times, %d points", tc.keep, r.Samples.Len(), len(r.Times), len(r.Points))
		}
	}
	if r := loadKeep(t, stream, KeepTimes); !strings.Contains(fmt.Sprint(r.Times[5]), "{1 5 ") {
		t.Errorf("times %v", r.Times)
	}
}
