package history

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/pkg/ndjson"
)

var (
	bigStore = flag.Int("history.big", 0, "measure show on a store of this many runs, each of 4 cases (0: skip)")
	bigOnly  = flag.String("history.big-store", "", "sqlite or postgres: measure only that store")
)

// TestShowBigStore measures reading one case's series from a store of
// -history.big runs (each with 4 cases), filled in bulk rather than by
// Add: go test -run ShowBigStore -v ./internal/history -history.big 1000000
func TestShowBigStore(t *testing.T) {
	if *bigStore == 0 {
		t.Skip("a measurement: -history.big N")
	}
	for name, dsn := range stores(t) {
		if *bigOnly != "" && name != *bigOnly {
			continue
		}
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			start := time.Now()
			if err := bulkFill(s, 0, *bigStore); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: filled %d runs in %v", name, *bigStore, time.Since(start).Round(time.Second))
			for _, last := range []int{500, 0} {
				start = time.Now()
				got, err := s.Series(Query{Case: "c2", Metric: "median_ns", Last: last})
				if err != nil {
					t.Fatal(err)
				}
				el := time.Since(start)
				cstart := time.Now()
				where, args := filters(Query{Metric: "median_ns"}, metricColumns["median_ns"], &seriesKey{"c2", Class(ndjsonHost())})
				var n int
				if err := s.db.QueryRow(s.dialect.bind("SELECT COUNT(*) FROM summaries s WHERE "+where), args...).Scan(&n); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: counting the case's %d points (show takes its total from series_keys instead): %v", name, n, time.Since(cstart).Round(time.Millisecond))
				if len(got) != 1 || got[0].Total != *bigStore {
					t.Fatalf("series: %d, total %d", len(got), got[0].Total)
				}
				t.Logf("%s: show --case c2 --last %d of %d runs: %d points in %v", name, last, *bigStore, len(got[0].Points), el.Round(time.Millisecond))
			}
			// Change points over the whole series: searched whole, then
			// as kept, then extended over one appended run.
			for i, what := range []string{"searched whole and kept", "as kept, nothing appended", "one run appended, the kept search extended"} {
				if i == 2 {
					if err := bulkFill(s, *bigStore, *bigStore+1); err != nil {
						t.Fatal(err)
					}
				}
				start = time.Now()
				got, err := s.Show(Query{Case: "c2", Metric: "median_ns"}, false, changepoint.DefaultOptions)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: show --case c2 --last 0 with change points, %s: %d points, %d change points, %d drifts in %v",
					name, what, len(got[0].Points), len(got[0].Changes), len(got[0].Drifts), time.Since(start).Round(time.Millisecond))
			}
			q := Query{Case: "c2", Metric: "median_ns", Last: 500}
			text, args := pointsSQL(q, metricColumns[q.Metric], seriesKey{"c2", "linux/amd64/Test CPU/2"})
			rows, err := s.db.Query(s.dialect.bind(explain(s.dialect)+text), args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				rows.Scan(ptrs...)
				t.Logf("plan: %v", vals)
			}
		})
	}
}

func explain(d dialect) string {
	if d == postgresDialect {
		return "EXPLAIN "
	}
	return "EXPLAIN QUERY PLAN "
}

// bulkFill adds runs from to n-1 of 4 cases each, 10,000 runs a
// transaction.
func bulkFill(s *Store, from, n int) error {
	if _, err := s.db.Exec(s.dialect.bind(`INSERT INTO streams (hash, codec, size, data) VALUES ('sha256:bulk', 'gzip', 0, ?) ON CONFLICT (hash) DO NOTHING`), []byte{}); err != nil {
		return err
	}
	for lo := from; lo < n; lo += 10000 {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		run, err := tx.Prepare(s.dialect.bind(insertRun))
		if err != nil {
			return err
		}
		sum, err := tx.Prepare(s.dialect.bind(insertSummary))
		if err != nil {
			return err
		}
		for i := lo; i < min(lo+10000, n); i++ {
			e := Entry{}
			e.Run.RunID = fmt.Sprintf("run-%08d", i)
			e.Run.Started = t0.Add(time.Duration(i) * time.Minute).Format(time.RFC3339Nano)
			e.Run.Host.OS, e.Run.Host.Arch, e.Run.Host.CPUModel, e.Run.Host.CPUs = "linux", "amd64", "Test CPU", 2
			if _, err := run.Exec(runValues(e, "sha256:bulk", "now")...); err != nil {
				return err
			}
			for c := range 4 {
				e.Summaries = nil
				// 1% noise, and a 3% step up every 20,000 runs
				v := (1000 + float64(c)) * (1 + 0.03*float64(i/20000%2) + 0.01*rand.New(rand.NewPCG(uint64(i), uint64(c))).NormFloat64())
				sm := fixtureSummary(e.Run.RunID, c, v)
				if _, err := sum.Exec(append(summaryValues(sm), sortableTime(e.Run.Started), Class(e.Run.Host))...); err != nil {
					return err
				}
				if _, err := tx.Exec(s.dialect.bind(insertKey), sm.Name, Class(e.Run.Host), 1); err != nil {
					return err
				}
			}
		}
		run.Close()
		sum.Close()
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

func ndjsonHost() ndjson.Host {
	return ndjson.Host{OS: "linux", Arch: "amd64", CPUModel: "Test CPU", CPUs: 2}
}
