package history

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// fixtureRun describes one synthetic analysed run.
type fixtureRun struct {
	id      string
	started time.Time
	tags    map[string]string
	// medians per case, in ns; case 0 is the reference of each comparison.
	medians []float64
}

// stream writes the analysed stream of runs as fb-analyze would: each
// run's run record, a sample, its end, analysis, summaries, comparisons.
func stream(runs ...fixtureRun) []byte {
	var b bytes.Buffer
	w := ndjson.NewWriter(&b)
	for _, r := range runs {
		run := &ndjson.Run{RunID: r.id, Tool: "fb-pair", ToolVersion: "test", Started: r.started.UTC().Format(time.RFC3339Nano),
			Mode: ndjson.ModeExec, Design: "paired", Tags: r.tags,
			Host: ndjson.Host{OS: "linux", Arch: "amd64", CPUModel: "Test CPU", CPUs: 2, Kernel: "6.1", Hostname: "h"}}
		for i := range r.medians {
			run.Cases = append(run.Cases, ndjson.Case{Name: fmt.Sprintf("c%d", i)})
		}
		mustWrite(w, run)
		mustWrite(w, &ndjson.Analysis{RunID: r.id, Analyzer: "test", Seed: 1, ConfidencePct: 95, ThresholdPct: 1, Complete: true})
		for i, m := range r.medians {
			mustWrite(w, &ndjson.Summary{RunID: r.id, Case: i, Name: fmt.Sprintf("c%d", i), N: 10, Min: m * 0.9, Median: m, Mean: m,
				P95: m * 1.1, P99: m * 1.2, Max: m * 1.3, SD: m * 0.01, MeanCI: [2]float64{m * 0.99, m * 1.01}})
		}
		for i := 1; i < len(r.medians); i++ {
			sp := r.medians[0] / r.medians[i]
			mustWrite(w, &ndjson.Comparison{RunID: r.id, Reference: 0, Contender: i, ReferenceName: "c0", ContenderName: fmt.Sprintf("c%d", i),
				Design: "paired", Pairs: 10, GeoSpeedup: sp, SpeedupCI: [2]float64{sp * 0.99, sp * 1.01},
				ChangePct: (1/sp - 1) * 100, ChangeCI: [2]float64{(1/sp-1)*100 - 1, (1/sp-1)*100 + 1}, ConfidencePct: 95, ThresholdPct: 1,
				Verdict: ndjson.VerdictEquivalent})
		}
	}
	return b.Bytes()
}

func mustWrite(w *ndjson.Writer, r ndjson.Record) {
	if err := w.Write(r); err != nil {
		panic(err)
	}
}

func fixtureSummary(runID string, c int, m float64) ndjson.Summary {
	return ndjson.Summary{RunID: runID, Case: c, Name: fmt.Sprintf("c%d", c), N: 10, Min: m * 0.9, Median: m, Mean: m,
		P95: m * 1.1, P99: m * 1.2, Max: m * 1.3, SD: m * 0.01, MeanCI: [2]float64{m * 0.99, m * 1.01}}
}

// addRuns writes runs as one stream named name, adds it to s untagged and
// returns its parsed entries.
func addRuns(t *testing.T, s *Store, name string, runs ...fixtureRun) []Entry {
	t.Helper()
	raw := stream(runs...)
	entries, err := Parse(name, raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(raw, entries, nil); err != nil {
		t.Fatal(err)
	}
	return entries
}
