package check

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/internal/history"
	"github.com/flybench/flybench/internal/pgtest"
	"github.com/flybench/flybench/pkg/ndjson"
)

var histT0 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// sampleRun is an analysed run of one case, "parse", measured alone on
// host at start i (seconds after histT0), with the given median in ns
// and a mean interval of ±1%.
func sampleRun(i int, host ndjson.Host, median float64) []ndjson.Record {
	id := fmt.Sprintf("%08d-aaaa-4bbb-8ccc-000000000000", i)
	run := runRecord(id, ndjson.DesignSingle, "parse")
	run.Host, run.Started = host, histT0.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano)
	run.Tags = map[string]string{"revision": fmt.Sprintf("rev%d", i)}
	sm := &ndjson.Summary{RunID: id, Case: 0, Name: "parse", N: 30, Min: median * 0.95, Median: median, Mean: median,
		P95: median * 1.05, P99: median * 1.06, Max: median * 1.1, SD: median * 0.02, MeanCI: [2]float64{median * 0.99, median * 1.01}}
	return []ndjson.Record{run, analysis(id), sm}
}

// wobble is a deterministic spread of relative size a around 1: the i-th
// run's factor.
func wobble(i int, a float64) float64 { return 1 + a*math.Sin(1.7*float64(i)) }

// fillStore adds one analysed run per median to a store, oldest first.
func fillStore(t *testing.T, s *history.Store, host ndjson.Host, medians []float64) {
	t.Helper()
	runs := make([][]ndjson.Record, len(medians))
	for i, m := range medians {
		runs[i] = sampleRun(i, host, m)
	}
	addRuns(t, s, runs)
}

// addRuns writes analysed runs into one stream and adds it to a store.
func addRuns(t *testing.T, s *history.Store, runs [][]ndjson.Record) {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, recs := range runs {
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := history.Parse("history.ndjson", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(buf.Bytes(), entries, nil); err != nil {
		t.Fatal(err)
	}
}

// historyStores are a fresh SQLite store and, when Debian's PostgreSQL
// server is installed, a fresh PostgreSQL database, by name.
func historyStores(t *testing.T) map[string]func(t *testing.T) string {
	dir := t.TempDir()
	out := map[string]func(t *testing.T) string{"sqlite": func(t *testing.T) string {
		return filepath.Join(dir, t.Name()[strings.LastIndex(t.Name(), "/")+1:]+".db")
	}}
	c, err := pgtest.Start()
	if err != nil {
		t.Logf("PostgreSQL skipped: %v", err)
		return out
	}
	t.Cleanup(func() { c.Stop() })
	out["postgres"] = func(t *testing.T) string {
		dsn, err := c.NewDatabase()
		if err != nil {
			t.Fatal(err)
		}
		return dsn
	}
	return out
}

func TestHistoryGate(t *testing.T) {
	flat := make([]float64, 20)
	noisy := make([]float64, 20)
	shifted := make([]float64, 20)
	for i := range flat {
		flat[i] = 1e6 * wobble(i, 0.005)
		noisy[i] = 1e6 * wobble(i, 0.25)
		shifted[i] = 1e6 * wobble(i, 0.005)
		if i >= 18 {
			shifted[i] *= 1.3
		}
	}
	other := testHost
	other.CPUs = 8
	cases := []struct {
		name    string
		host    ndjson.Host
		history []float64
		newest  float64
		outcome string
		item    string
		why     string
	}{
		{"flat history passes", testHost, flat, 1.004e6, ndjson.CheckPass, ndjson.CheckItemPass, "below the 5% threshold"},
		{"20% slower regresses", testHost, flat, 1.2e6, ndjson.CheckRegressed, ndjson.CheckItemFail, "slower by 20.0% than the level of the last 20 runs (999.7 µs): at least 5% and outside the ±1.4% window (interval ±1.0%, history noise ±1.0%)"},
		{"noisy history widens the window", testHost, noisy, 1.2e6, ndjson.CheckPass, ndjson.CheckItemPass, "inside the ±"},
		{"too little history", testHost, flat[:4], 1.2e6, ndjson.CheckCannotJudge, ndjson.CheckItemSkip, "too little history: 4 comparable runs on this machine class, at least 5 needed"},
		{"another machine class", other, flat, 1.2e6, ndjson.CheckCannotJudge, ndjson.CheckItemSkip, "too little history: 0 comparable runs"},
		{"change point at the newest runs", testHost, shifted, 1.3e6, ndjson.CheckRegressed, ndjson.CheckItemFail, "; change point at the newest runs: +30.0%, p 0.002 from run 00000018 (revision rev18) on, this run included"},
	}
	for store, dsn := range historyStores(t) {
		t.Run(store, func(t *testing.T) {
			for _, tc := range cases {
				t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
					s, err := history.Open(dsn(t))
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					fillStore(t, s, tc.host, tc.history)
					all := load(t, sampleRun(100, testHost, tc.newest)...)
					res, err := JudgeHistory(all, nil, DefaultOptions, History{Past: s, Store: "test.db", Runs: DefaultHistoryRuns, Change: changepoint.DefaultOptions})
					if err != nil {
						t.Fatal(err)
					}
					ck := res.Checks[0]
					if ck.Outcome != tc.outcome || res.Outcome != tc.outcome || len(ck.Items) != 1 {
						t.Fatalf("outcome %q (overall %q), want %q: %+v", ck.Outcome, res.Outcome, tc.outcome, ck)
					}
					it := ck.Items[0]
					if it.Kind != KindHistory || it.Outcome != tc.item || !strings.Contains(it.Why, tc.why) {
						t.Fatalf("item %+v, want %s with why containing %q", it, tc.item, tc.why)
					}
					if tc.outcome == ndjson.CheckCannotJudge && !strings.HasPrefix(res.Reason, "too little history: ") {
						t.Errorf("reason %q", res.Reason)
					}
				})
			}
		})
	}
}

// TestHistoryBesideComparisons: a paired run's own comparison is judged
// as always; a case without enough history is skipped beside it, and the
// run passes on what could be judged.
func TestHistoryBesideComparisons(t *testing.T) {
	s, err := history.Open(filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs := passingRun()
	for i, name := range []string{"old", "new"} {
		recs = append(recs, &ndjson.Summary{RunID: recs[1].(*ndjson.Analysis).RunID, Case: i, Name: name, N: 30, Min: 9e5, Median: 1e6, Mean: 1e6,
			P95: 1.1e6, P99: 1.1e6, Max: 1.2e6, MeanCI: [2]float64{0.99e6, 1.01e6}})
	}
	all := load(t, recs...)
	res, err := JudgeHistory(all, nil, DefaultOptions, History{Past: s, Store: "h.db", Runs: 20, Change: changepoint.DefaultOptions})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != ndjson.CheckPass || res.Skipped != 2 {
		t.Fatalf("result %+v", res)
	}
	var buf bytes.Buffer
	if err := Write(&buf, res, all, Render{Options: DefaultOptions, History: "h.db", HistoryRuns: 20}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"history: h.db, each case against the median of its last 20 comparable runs (at least 5)", "too little history: 0 comparable runs on this machine class"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("console lacks %q:\n%s", want, buf.String())
		}
	}
}

// scoredRun is an analysed run of "parse" scored against a reference
// workload "ref" (case 1), both measured at start i on a machine running
// at speed factor machine: parse's median is score·machine ms, ref's
// machine·2 ms, each with a mean interval of ±1%.
func scoredRun(i int, machine, score float64) []ndjson.Record {
	id := fmt.Sprintf("%08d-aaaa-4bbb-8ccc-000000000001", i)
	run := runRecord(id, ndjson.DesignSingle, "parse", "ref")
	run.Started = histT0.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)
	recs := []ndjson.Record{run, analysis(id)}
	ref := 2e6 * machine
	for c, median := range []float64{2e6 * score * machine, ref} {
		sm := &ndjson.Summary{RunID: id, Case: c, Name: run.Cases[c].Name, N: 30, Min: median * 0.95, Median: median, Mean: median,
			P95: median * 1.05, P99: median * 1.06, Max: median * 1.1, SD: median * 0.02, MeanCI: [2]float64{median * 0.99, median * 1.01}}
		if c == 0 {
			h := math.Hypot(0.01, 0.01)
			sm.Normalized = &ndjson.Normalized{ReferenceCase: 1, Score: median / ref, CI: [2]float64{median / ref * (1 - h), median / ref * (1 + h)}}
		}
		recs = append(recs, sm)
	}
	return recs
}

// TestHistoryJudgesScores: with a reference workload in every run, a case
// is judged by its score, so the machine's speed, which moves every
// median ±15% from run to run here, neither hides a 20% regression nor
// fails a run on a slow machine; the reference workload itself is skipped.
func TestHistoryJudgesScores(t *testing.T) {
	cases := []struct {
		name              string
		machine, score    float64
		outcome, metric   string
		why, referenceWhy string
	}{
		{"a regression on a fast machine", 0.88, 0.5 * 1.2, ndjson.CheckItemFail, "score", "slower by 20.0% than the level of the last 20 runs (score 0.4999)", "the reference workload: the other cases are judged in its units"},
		{"a slow machine, no change", 1.15, 0.5, ndjson.CheckItemPass, "score", "than the level of the last 20 runs (score 0.4999)", "the reference workload"},
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			s, err := history.Open(filepath.Join(t.TempDir(), "h.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			runs := make([][]ndjson.Record, 20)
			for i := range runs {
				runs[i] = scoredRun(i, wobble(i, 0.15), 0.5*wobble(i, 0.002))
			}
			addRuns(t, s, runs)
			all := load(t, scoredRun(100, tc.machine, tc.score)...)
			res, err := JudgeHistory(all, nil, DefaultOptions, History{Past: s, Store: "h.db", Runs: DefaultHistoryRuns, Change: changepoint.DefaultOptions})
			if err != nil {
				t.Fatal(err)
			}
			items := res.Checks[0].Items
			if len(items) != 2 {
				t.Fatalf("items %+v", items)
			}
			if it := items[0]; it.Subject != "parse" || it.Metric != tc.metric || it.Outcome != tc.outcome || !strings.Contains(it.Why, tc.why) {
				t.Errorf("parse: %+v, want %s %s with why containing %q", it, tc.metric, tc.outcome, tc.why)
			}
			if it := items[1]; it.Subject != "ref" || it.Outcome != ndjson.CheckItemSkip || !strings.Contains(it.Why, tc.referenceWhy) {
				t.Errorf("ref: %+v", it)
			}
		})
	}
}
