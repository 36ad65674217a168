package record

import (
	"slices"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// offer feeds observations 1..n to a store of policy p and returns the
// kept observation numbers, sorted, and how many were dropped.
func offer(p Policy, n int) (kept []int64, dropped int) {
	s := newStore(p, 0)
	for i := 1; i <= n; i++ {
		if s.add(Row{Obs: int64(i), WallNS: int64(i)}) {
			dropped++
		}
	}
	for _, r := range s.sorted() {
		kept = append(kept, r.Obs)
	}
	return kept, dropped
}

func TestFirstAndLatestKeepTheirEnds(t *testing.T) {
	kept, dropped := offer(Policy{Name: ndjson.RetainFirst, Capacity: 3}, 10)
	if !slices.Equal(kept, []int64{1, 2, 3}) || dropped != 7 {
		t.Fatalf("first: kept %v, dropped %d", kept, dropped)
	}
	kept, dropped = offer(Policy{Name: ndjson.RetainLatest, Capacity: 3}, 10)
	if !slices.Equal(kept, []int64{8, 9, 10}) || dropped != 7 {
		t.Fatalf("latest: kept %v, dropped %d", kept, dropped)
	}
	kept, dropped = offer(Policy{Name: ndjson.RetainReservoir, Capacity: 30}, 10)
	if len(kept) != 10 || dropped != 0 {
		t.Fatalf("reservoir under capacity: kept %v, dropped %d", kept, dropped)
	}
}

func TestReservoirIsSeeded(t *testing.T) {
	p := Policy{Name: ndjson.RetainReservoir, Capacity: 5, Seed: 7}
	a, _ := offer(p, 1000)
	b, _ := offer(p, 1000)
	p.Seed = 8
	c, _ := offer(p, 1000)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Fatalf("seed 7 twice: %v and %v; seed 8: %v", a, b, c)
	}
}

// Every observation must be equally likely to be kept: over many seeds,
// the kept positions of 1..n fall into 10 equal bins uniformly (a
// chi-square test with 9 degrees of freedom at the 0.1% level, 27.88).
func TestReservoirIsUniform(t *testing.T) {
	const n, capacity, bins, trials = 1000, 20, 10, 2000
	var counts [bins]float64
	for seed := uint64(0); seed < trials; seed++ {
		kept, dropped := offer(Policy{Name: ndjson.RetainReservoir, Capacity: capacity, Seed: seed}, n)
		if len(kept) != capacity || dropped != n-capacity {
			t.Fatalf("kept %d, dropped %d", len(kept), dropped)
		}
		for _, obs := range kept {
			counts[(obs-1)*bins/n]++
		}
	}
	want := float64(trials*capacity) / bins
	chi2 := 0.0
	for _, c := range counts {
		chi2 += (c - want) * (c - want) / want
	}
	if chi2 > 27.88 {
		t.Fatalf("chi-square %.2f over bins %v: not uniform", chi2, counts)
	}
	t.Logf("chi-square %.2f (9 df; 0.1%% critical value 27.88)", chi2)
}

func TestPolicyCheck(t *testing.T) {
	if err := (Policy{Name: "random", Capacity: 1}).Check(); err == nil {
		t.Fatal("unknown policy accepted")
	}
	if err := (Policy{Name: ndjson.RetainFirst, Capacity: 0}).Check(); err == nil {
		t.Fatal("capacity 0 accepted")
	}
	if err := (Policy{Name: ndjson.RetainLatest, Capacity: 1}).Check(); err != nil {
		t.Fatal(err)
	}
}

func TestQuantilesNearestRank(t *testing.T) {
	vals := []int64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	m, p95, ok := Quantiles(vals)
	if !ok || m != 5 || p95 != 10 {
		t.Fatalf("median %d p95 %d", m, p95)
	}
	if _, _, ok := Quantiles(nil); ok {
		t.Fatal("quantiles of nothing")
	}
	var w window
	for i := int64(1); i <= WindowSpans+500; i++ {
		w.add(i)
	}
	got := w.copyTo(nil)
	if len(got) != WindowSpans || slices.Min(got) != 501 {
		t.Fatalf("window holds %d values from %d: want the last %d", len(got), slices.Min(got), WindowSpans)
	}
}
