package history

import (
	"flag"
	"fmt"
	"testing"
	"time"

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
			if err := bulkFill(s, *bigStore); err != nil {
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
				t.Logf("%s: of which the count of the case's %d points: %v", name, n, time.Since(cstart).Round(time.Millisecond))
				if len(got) != 1 || got[0].Total != *bigStore {
					t.Fatalf("series: %d, total %d", len(got), got[0].Total)
				}
				t.Logf("%s: show --case c2 --last %d of %d runs: %d points in %v", name, last, *bigStore, len(got[0].Points), el.Round(time.Millisecond))
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

// bulkFill adds n runs of 4 cases each, 10,000 runs a transaction.
func bulkFill(s *Store, n int) error {
	if _, err := s.db.Exec(s.dialect.bind(`INSERT INTO streams (hash, codec, size, data) VALUES ('sha256:bulk', 'gzip', 0, ?)`), []byte{}); err != nil {
		return err
	}
	for lo := 0; lo < n; lo += 10000 {
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
				v := float64(1000 + i%7 + c)
				sm := fixtureSummary(e.Run.RunID, c, v)
				if _, err := sum.Exec(append(summaryValues(sm), sortableTime(e.Run.Started), Class(e.Run.Host))...); err != nil {
					return err
				}
				if _, err := tx.Exec(s.dialect.bind(insertKey), sm.Name, Class(e.Run.Host)); err != nil {
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
