package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/pkg/ndjson"
)

// levelRuns are runs r<from>..r<to-1> of one case, an hour apart, whose
// level steps 100 → 112 at 25 and back to 100 at 60, in 1% noise.
func levelRuns(from, to int) []fixtureRun {
	var runs []fixtureRun
	for i := from; i < to; i++ {
		level := 100.0
		if i >= 25 && i < 60 {
			level = 112
		}
		r := rand.New(rand.NewPCG(uint64(i), 9))
		runs = append(runs, fixtureRun{id: fmt.Sprintf("r%03d", i), started: t0.Add(time.Duration(i) * time.Hour),
			tags: map[string]string{"revision": fmt.Sprintf("v%d", i)}, medians: []float64{level * (1 + 0.01*r.NormFloat64())}})
	}
	return runs
}

// searchedWhole is what a show finds without a kept segmentation: the
// same series, MarkChanges.
func searchedWhole(t *testing.T, s *Store, q Query, opt changepoint.Options) []ndjson.Series {
	t.Helper()
	series, err := s.Series(q)
	if err != nil {
		t.Fatal(err)
	}
	MarkChanges(series, opt)
	return series
}

func keptRow(t *testing.T, s *Store) (n, settled int, changes string) {
	t.Helper()
	if err := s.db.QueryRow(`SELECT n, settled, changes FROM segmentations`).Scan(&n, &settled, &changes); err != nil {
		t.Fatal(err)
	}
	return n, settled, changes
}

// TestShowKeepsChangePoints: a show keeps the series' segmentation; after
// runs are appended the next show extends it (it resumes what was kept:
// a marked settled change point comes back as kept) and its change points
// equal a whole search of the new series; a run added in the middle, a
// kept row that is not a segmentation of its points, or a missing table
// make it search the whole series again, with the same result.
func TestShowKeepsChangePoints(t *testing.T) {
	opt := changepoint.DefaultOptions
	opt.Window = 24 // several windows: settled change points before the last
	q := Query{Case: "c0", Metric: "median_ns"}
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			addRuns(t, s, "a", levelRuns(0, 70)...)
			show := func(what string) []ndjson.Series {
				t.Helper()
				got, err := s.Show(q, false, opt)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				if want := searchedWhole(t, s, q, opt); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: shown %+v\nsearched whole %+v", what, got[0].Changes, want[0].Changes)
				}
				return got
			}
			first := show("first show")
			if idx := changeIndices(first[0]); !reflect.DeepEqual(idx, []int{25, 60}) {
				t.Fatalf("change points at %v, want 25 and 60", idx)
			}
			n, settled, _ := keptRow(t, s)
			if n != 70 || settled < 1 {
				t.Fatalf("kept: %d points, %d settled; want 70 and the step at 25 settled", n, settled)
			}
			show("a show with nothing appended")

			// Mark the first settled change point's p-value: a show that
			// resumes the kept segmentation reports it as kept.
			markP(t, s, 25, 0.000123)
			addRuns(t, s, "b", levelRuns(70, 80)...)
			got, err := s.Show(q, false, opt)
			if err != nil {
				t.Fatal(err)
			}
			if c := got[0].Changes; len(c) != 2 || c[0].Index != 25 || c[0].P != 0.000123 || c[1].Index != 60 {
				t.Fatalf("after 10 appended runs: %+v, want the kept change point at 25 (p 0.000123) resumed, and 60", c)
			}
			if n, _, _ = keptRow(t, s); n != 80 {
				t.Fatalf("kept %d points after the show of 80", n)
			}
			markP(t, s, 25, searchedWhole(t, s, q, opt)[0].Changes[0].P)
			show("resumed from 80 points")

			// --last below the total: searched as shown, the kept row untouched.
			if _, err := s.Show(Query{Case: "c0", Metric: "median_ns", Last: 30}, false, opt); err != nil {
				t.Fatal(err)
			}
			if n, _, _ = keptRow(t, s); n != 80 {
				t.Fatalf("--last 30 kept %d points", n)
			}

			// A run that started before the newest: another prefix.
			mid := levelRuns(30, 31)[0]
			mid.id, mid.started = "r030b", mid.started.Add(time.Minute)
			addRuns(t, s, "c", mid)
			markP(t, s, 25, 0.000123)
			if c := show("a run added in the middle")[0].Changes; c[0].P == 0.000123 {
				t.Fatalf("a changed prefix was resumed: %+v", c)
			}

			// A row that is no segmentation of its points.
			if _, err := s.db.Exec(`UPDATE segmentations SET settled = 99`); err != nil {
				t.Fatal(err)
			}
			show("a kept row with more settled change points than change points")
			if _, settled, _ = keptRow(t, s); settled == 99 {
				t.Fatal("the bad row was not replaced")
			}

			// Nowhere to keep it: the change points are right, and a *KeepError says so.
			if _, err := s.db.Exec(`DROP TABLE segmentations`); err != nil {
				t.Fatal(err)
			}
			got, err = s.Show(q, false, opt)
			var ke *KeepError
			if !errors.As(err, &ke) {
				t.Fatalf("no table to keep them in: %v", err)
			}
			if want := searchedWhole(t, s, q, opt); !reflect.DeepEqual(got, want) {
				t.Fatalf("without a table: %+v, want %+v", got[0].Changes, want[0].Changes)
			}
		})
	}
}

// markP sets the p-value of the kept change point at index.
func markP(t *testing.T, s *Store, index int, p float64) {
	t.Helper()
	_, _, changes := keptRow(t, s)
	var cs []keptChange
	if err := json.Unmarshal([]byte(changes), &cs); err != nil {
		t.Fatal(err)
	}
	for i := range cs {
		if cs[i].Index == index {
			cs[i].P = p
		}
	}
	b, _ := json.Marshal(cs)
	if _, err := s.db.Exec(s.dialect.bind(`UPDATE segmentations SET changes = ?`), string(b)); err != nil {
		t.Fatal(err)
	}
}

func changeIndices(s ndjson.Series) []int {
	var out []int
	for _, c := range s.Changes {
		out = append(out, c.Index)
	}
	return out
}

// TestSegmentationKeys: each series, filter and setting has its own kept
// segmentation.
func TestSegmentationKeys(t *testing.T) {
	sr := ndjson.Series{Case: "c0", Metric: "median_ns", Class: "k"}
	base := segmentationKey(sr, changepoint.DefaultOptions)
	other := []string{}
	for _, v := range []ndjson.Series{
		{Case: "c1", Metric: "median_ns", Class: "k"},
		{Case: "c0", Metric: "mean_ns", Class: "k"},
		{Case: "c0", Metric: "median_ns", Class: "j"},
		{Case: "c0", Metric: "median_ns", Class: "k", Where: map[string]string{"branch": "main"}},
	} {
		other = append(other, segmentationKey(v, changepoint.DefaultOptions))
	}
	for _, f := range []func(*changepoint.Options){
		func(o *changepoint.Options) { o.Level = 0.05 },
		func(o *changepoint.Options) { o.Seed = 2 },
		func(o *changepoint.Options) { o.Window = 0 },
		func(o *changepoint.Options) { o.Permutations = 199 },
		func(o *changepoint.Options) { o.MinSize = 4 },
	} {
		o := changepoint.DefaultOptions
		f(&o)
		other = append(other, segmentationKey(sr, o))
	}
	seen := map[string]bool{base: true}
	for i, k := range other {
		if seen[k] {
			t.Errorf("key %d repeats another", i)
		}
		seen[k] = true
	}
	if segmentationKey(sr, changepoint.DefaultOptions) != base {
		t.Error("one series and setting gave two keys")
	}
}

// TestMigrationToKeptSegmentations: a store of schema version 1 opened by
// this build gains the segmentations table and keeps its runs.
func TestMigrationToKeptSegmentations(t *testing.T) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			addRuns(t, s, "a", levelRuns(0, 5)...)
			downgrade(t, s, 1)
			s.Close()
			s = open(t, dsn)
			if n := count(t, s, "schema_migrations"); n != SchemaVersion || SchemaVersion < 2 {
				t.Fatalf("%d migrations recorded, want %d", n, SchemaVersion)
			}
			if n := count(t, s, "runs"); n != 5 {
				t.Fatalf("%d runs after the migration, want 5", n)
			}
			if _, err := s.Show(Query{Metric: "median_ns"}, false, changepoint.DefaultOptions); err != nil {
				t.Fatal(err)
			}
			if n := count(t, s, "segmentations"); n != 1 {
				t.Fatalf("%d kept segmentations, want 1", n)
			}
		})
	}
}

// downgrade makes s a store of schema version v, as an older build left
// it: every later migration undone, the counts of migration 3 included.
func downgrade(t *testing.T, s *Store, v int) {
	t.Helper()
	undo := map[int]string{2: `DROP TABLE segmentations`, 3: `ALTER TABLE series_keys DROP COLUMN points`}
	if len(undo) != SchemaVersion-1 {
		t.Fatalf("downgrade knows migrations 2 and 3, the schema has %d", SchemaVersion)
	}
	for m := SchemaVersion; m > v; m-- {
		if _, err := s.db.Exec(undo[m]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.Exec(s.dialect.bind(`DELETE FROM schema_migrations WHERE version > ?`), v); err != nil {
		t.Fatal(err)
	}
}

// TestSeriesPointsCounted: add counts each series' points as it stores
// them (a run stored already counts nothing), a show's total of its
// newest points is that count, and a store of schema version 2 gets its
// counts when opened.
func TestSeriesPointsCounted(t *testing.T) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			runs := levelRuns(0, 7)
			for i := range runs {
				runs[i].medians = append(runs[i].medians, 50)
			}
			addRuns(t, s, "a", runs[:5]...)
			addRuns(t, s, "again", runs[2:]...) // 2, 3, 4 kept
			checkCounts(t, s, map[string]int{"c0": 7, "c1": 7})
			got, err := s.Series(Query{Metric: "median_ns", Last: 3})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].Total != 7 || got[1].Total != 7 || len(got[0].Points) != 3 {
				t.Fatalf("--last 3 of 7: %+v", got)
			}
			got, err = s.Series(Query{Case: "c0", Metric: "median_ns", Last: 1, Where: map[string]string{"revision": "v3"}})
			if err != nil || len(got) != 1 || got[0].Total != 1 {
				t.Fatalf("--last 1 of the one run tagged revision v3: %+v, %v", got, err)
			}
			downgrade(t, s, 2)
			s.Close()
			s = open(t, dsn)
			checkCounts(t, s, map[string]int{"c0": 7, "c1": 7})
		})
	}
}

// checkCounts compares series_keys' counts with the summaries and with want.
func checkCounts(t *testing.T, s *Store, want map[string]int) {
	t.Helper()
	rows, err := s.db.Query(`SELECT k.name, k.points, (SELECT COUNT(*) FROM summaries m WHERE m.name = k.name AND m.class = k.class) FROM series_keys k ORDER BY k.name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]int{}
	for rows.Next() {
		var name string
		var points, counted int
		if err := rows.Scan(&name, &points, &counted); err != nil {
			t.Fatal(err)
		}
		if points != counted {
			t.Errorf("series %s: %d points kept, %d summaries", name, points, counted)
		}
		got[name] = points
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want != nil && !reflect.DeepEqual(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
}
