package history

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/changepoint"
)

func TestSeries(t *testing.T) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			// Added out of order, with starts that RFC3339Nano writes with
			// different numbers of digits (".5" before "" in a string sort).
			var runs []fixtureRun
			for _, i := range []int{3, 0, 4, 1, 2} {
				branch := "main"
				if i == 4 {
					branch = "dev"
				}
				runs = append(runs, fixtureRun{id: fmt.Sprintf("r%d", i), started: t0.Add(time.Duration(i) * 500 * time.Millisecond),
					tags: map[string]string{"revision": fmt.Sprintf("rev%d", i), "branch": branch}, medians: []float64{100 + float64(i), 50}})
			}
			addRuns(t, s, "s", runs...)
			got, err := s.Series(Query{Case: "c0", Metric: "median_ns", Where: map[string]string{"branch": "main"}})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Total != 4 || got[0].Class != "linux/amd64/Test CPU/2" {
				t.Fatalf("series: %+v", got)
			}
			for i, p := range got[0].Points {
				if p.RunID != fmt.Sprintf("r%d", i) || p.Value != 100+float64(i) || p.Revision != fmt.Sprintf("rev%d", i) || p.CI != nil {
					t.Errorf("point %d: %+v", i, p)
				}
			}
			last, _ := s.Series(Query{Metric: "mean_ns", Last: 2})
			if len(last) != 2 || last[0].Case != "c0" || last[1].Case != "c1" || last[0].Total != 5 || len(last[0].Points) != 2 ||
				last[0].Points[1].RunID != "r4" || last[0].Points[1].CI == nil || last[0].Points[1].CI[0] != 104*0.99 {
				t.Errorf("--last 2 of every case: %+v", last)
			}
			none, _ := s.Series(Query{Metric: "score"})
			if len(none) != 0 {
				t.Errorf("a score series of runs without a reference workload: %+v", none)
			}
			if _, err := s.Series(Query{Metric: "p42"}); err == nil {
				t.Error("an unknown metric was accepted")
			}
		})
	}
}

func TestMarkChanges(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "c.db"))
	var runs []fixtureRun
	for i := range 30 {
		level := 100.0
		if i >= 18 {
			level = 110
		}
		noise := float64((i*7)%5-2) * 0.4 // a fixed wobble of ±0.8%
		runs = append(runs, fixtureRun{id: fmt.Sprintf("r%02d", i), started: t0.Add(time.Duration(i) * time.Hour),
			tags: map[string]string{"revision": fmt.Sprintf("v%d", i)}, medians: []float64{level + noise}})
	}
	addRuns(t, s, "m", runs...)
	series, err := s.Series(Query{Case: "c0", Metric: "median_ns"})
	if err != nil {
		t.Fatal(err)
	}
	MarkChanges(series, changepoint.DefaultOptions)
	got := series[0].Changes
	if len(got) != 1 {
		t.Fatalf("changes: %+v", got)
	}
	c := got[0]
	if c.Index != 18 || c.BeforeRun != "r17" || c.AfterRun != "r18" || c.BeforeRevision != "v17" || c.AfterRevision != "v18" ||
		c.ChangePct < 9 || c.ChangePct > 11 || c.P > 0.01 || series[0].Detection == nil {
		t.Errorf("change: %+v", c)
	}
	// A 10% step in ±0.8% noise is placed between the two runs around it.
	if g := c.Range; g == nil || g.From != 18 || g.To != 18 || g.BeforeRun != "r17" || g.AfterRun != "r18" || g.BeforeRevision != "v17" || g.AfterRevision != "v18" {
		t.Errorf("range %+v: want the change at 18 alone, v17 to v18", g)
	}
	// The interval of a 10% step in ±0.8% noise holds 10% and is narrow.
	if d := series[0].Detection; c.ChangeCI == nil || c.ChangeCI[0] > 10 || c.ChangeCI[1] < 10 || c.ChangeCI[1]-c.ChangeCI[0] > 2 ||
		d.Window != changepoint.DefaultOptions.Window || d.ConfidencePct != 95 {
		t.Errorf("interval %v, detection %+v", c.ChangeCI, d)
	}
}

// TestMarkDrifts: runs whose level climbs steadily are one drift, from the
// first run to the last, and no change points.
func TestMarkDrifts(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "d.db"))
	var runs []fixtureRun
	for i := range 40 {
		noise := float64((i*7)%5-2) * 0.05 // a fixed wobble of ±0.1%
		runs = append(runs, fixtureRun{id: fmt.Sprintf("r%02d", i), started: t0.Add(time.Duration(i) * time.Hour),
			tags: map[string]string{"revision": fmt.Sprintf("v%d", i)}, medians: []float64{100 * (1 + 0.1*float64(i)/39) * (1 + noise/100)}})
	}
	addRuns(t, s, "m", runs...)
	series, err := s.Series(Query{Case: "c0", Metric: "median_ns"})
	if err != nil {
		t.Fatal(err)
	}
	MarkChanges(series, changepoint.DefaultOptions)
	got := series[0]
	if len(got.Drifts) != 1 || len(got.Changes) != 0 {
		t.Fatalf("drifts %+v, changes %+v: want one drift", got.Drifts, got.Changes)
	}
	d := got.Drifts[0]
	if d.From != 0 || d.To != 39 || d.FromRun != "r00" || d.ToRun != "r39" || d.FromRevision != "v0" || d.ToRevision != "v39" ||
		d.ChangePct < 9 || d.ChangePct > 11 || d.Changes < 2 {
		t.Errorf("drift %+v: want r00 to r39, about +10%%", d)
	}
}
