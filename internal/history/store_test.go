package history

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/pgtest"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestMain lets the test binary act as a writer process for the
// concurrency tests (FB_HISTORY_WRITER set), and stops the PostgreSQL
// cluster the tests started, if any.
func TestMain(m *testing.M) {
	if os.Getenv("FB_HISTORY_WRITER") != "" {
		os.Exit(writerMain())
	}
	code := m.Run()
	if cluster != nil {
		cluster.Stop()
	}
	os.Exit(code)
}

var (
	clusterOnce sync.Once
	cluster     *pgtest.Cluster
	clusterErr  error
)

// stores returns a fresh SQLite store and, when a PostgreSQL server can
// be started here, a fresh PostgreSQL database, by name.
func stores(t *testing.T) map[string]string {
	t.Helper()
	dsns := map[string]string{"sqlite": filepath.Join(t.TempDir(), "h.db")}
	clusterOnce.Do(func() { cluster, clusterErr = pgtest.Start() })
	if clusterErr != nil {
		t.Logf("PostgreSQL skipped: %v", clusterErr)
		return dsns
	}
	dsn, err := cluster.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	dsns["postgres"] = dsn
	return dsns
}

func open(t *testing.T, dsn string) *Store {
	t.Helper()
	s, err := Open(dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAddIdempotent(t *testing.T) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			raw := stream(
				fixtureRun{id: "r1", started: t0, tags: map[string]string{"revision": "a"}, medians: []float64{100, 90}},
				fixtureRun{id: "r2", started: t0.Add(time.Hour), medians: []float64{100, 95, 80}})
			entries, err := Parse("x.ndjson", raw)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.Add(raw, entries, map[string]string{"branch": "main"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || !got[0].Stored || !got[1].Stored || got[1].Cases != 3 || got[1].Comps != 2 {
				t.Fatalf("first add: %+v", got)
			}
			again, err := s.Add(raw, entries, map[string]string{"branch": "main"})
			if err != nil {
				t.Fatal(err)
			}
			if again[0].Stored || again[1].Stored {
				t.Errorf("second add stored again: %+v", again)
			}
			for table, want := range map[string]int{"runs": 2, "summaries": 5, "comparisons": 3, "tags": 3, "streams": 1} {
				if n := count(t, s, table); n != want {
					t.Errorf("%s: %d rows, want %d", table, n, want)
				}
			}
			hash, _, _ := pack(raw)
			back, err := s.Stream(hash)
			if err != nil || string(back) != string(raw) {
				t.Errorf("stream round trip: %v, %d bytes of %d", err, len(back), len(raw))
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	raw := stream(fixtureRun{id: "r1", started: t0, medians: []float64{1}})
	unanalysed := []byte(`{"type":"run","v":"1.6","run_id":"r9","tool":"fb-pair"}` + "\n")
	var nae *NotAnalyzedError
	if _, err := Parse("u.ndjson", append(raw, unanalysed...)); !errors.As(err, &nae) || nae.Line != 4 || nae.RunID != "r9" {
		t.Errorf("run without analysis: %v", err)
	}
	if _, err := Parse("e.ndjson", nil); err == nil {
		t.Error("an empty stream was accepted")
	}
	if _, err := Parse("b.ndjson", append(raw, "{bad\n"...)); err == nil || err.Error()[:12] != "b.ndjson:4: " {
		t.Errorf("bad line: %v", err)
	}
}

func TestMigrationsRefuseNewerStore(t *testing.T) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			if _, err := s.db.Exec(s.dialect.bind(`INSERT INTO schema_migrations (version, applied) VALUES (?, 'later')`), SchemaVersion+1); err != nil {
				t.Fatal(err)
			}
			s.Close()
			var ve *VersionError
			if _, err := Open(dsn); !errors.As(err, &ve) || ve.Found != SchemaVersion+1 {
				t.Errorf("a newer store opened: %v", err)
			}
		})
	}
}

// Writers × runs each: every writer adds its own runs one stream at a
// time, and also every run of the writer before it (the same run ids
// from another process), so both new rows and conflicting ones race.
// The measurement: -history.writers 8 -history.runs 100.
var (
	writers  = flag.Int("history.writers", 6, "writer processes of the concurrency tests")
	runsEach = flag.Int("history.runs", 15, "runs each writer adds")
)

func TestConcurrentWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			open(t, dsn).Close() // an existing store; the first open races too in TestConcurrentFirstOpen
			runWriters(t, dsn)
			s := open(t, dsn)
			if n := count(t, s, "runs"); n != *writers**runsEach {
				t.Errorf("%d runs stored, want %d", n, *writers**runsEach)
			}
			if n := count(t, s, "summaries"); n != 2**writers**runsEach {
				t.Errorf("%d summaries, want %d", n, 2**writers**runsEach)
			}
			checkCounts(t, s, nil)
		})
	}
}

func TestConcurrentFirstOpen(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) {
			runWriters(t, dsn)
			if n := count(t, open(t, dsn), "schema_migrations"); n != SchemaVersion {
				t.Errorf("%d migrations recorded, want %d", n, SchemaVersion)
			}
		})
	}
}

func runWriters(t *testing.T, dsn string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, *writers)
	start := time.Now()
	for w := range *writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run", "^$")
			cmd.Env = append(os.Environ(), "FB_HISTORY_WRITER="+strconv.Itoa(w), "FB_HISTORY_DSN="+dsn,
				"FB_HISTORY_WRITERS="+strconv.Itoa(*writers), "FB_HISTORY_RUNS="+strconv.Itoa(*runsEach))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs[w] = fmt.Errorf("writer %d: %v: %s", w, err, out)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d writers × %d runs (and the previous writer's %d again) in %v", *writers, *runsEach, *runsEach, time.Since(start).Round(time.Millisecond))
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// writerMain adds writer w's runs and the previous writer's, one stream each.
func writerMain() int {
	w, _ := strconv.Atoi(os.Getenv("FB_HISTORY_WRITER"))
	n, _ := strconv.Atoi(os.Getenv("FB_HISTORY_WRITERS"))
	runs, _ := strconv.Atoi(os.Getenv("FB_HISTORY_RUNS"))
	s, err := Open(os.Getenv("FB_HISTORY_DSN"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	prev := (w + n - 1) % n
	for i := range runs {
		for _, owner := range []int{w, prev} {
			raw := stream(fixtureRun{id: fmt.Sprintf("w%d-%d", owner, i), started: t0.Add(time.Duration(i) * time.Minute), medians: []float64{100, 99}})
			entries, err := Parse("w", raw)
			if err == nil {
				_, err = s.Add(raw, entries, nil)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
	return 0
}
