package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

type bmfDoc map[string]map[string]struct {
	Value float64  `json:"value"`
	Lower *float64 `json:"lower_value"`
	Upper *float64 `json:"upper_value"`
}

func renderBMF(t *testing.T, s *model.Stream) bmfDoc {
	t.Helper()
	var doc bmfDoc
	check(t, json.Unmarshal(renderAs(t, s, "bmf"), &doc))
	return doc
}

// TestBMFMeasures: every analysed case is a benchmark with its latency
// (the mean time per operation, the mean's interval as bounds), and the
// memory axes it measured, each with its interval.
func TestBMFMeasures(t *testing.T) {
	s := importedGobench(t)
	doc := renderBMF(t, s)
	n := 0
	for _, r := range s.Runs {
		for i := range r.Run.Cases {
			sum := r.Summary(i)
			b, ok := doc[r.CaseName(i)]
			if !ok {
				t.Fatalf("no benchmark %q in %v", r.CaseName(i), doc)
			}
			lat := b["latency"]
			if lat.Value != sum.Mean || lat.Lower == nil || *lat.Lower != sum.MeanCI[0] || *lat.Upper != sum.MeanCI[1] {
				t.Errorf("%s: latency %+v, summary mean %g %v", r.CaseName(i), lat, sum.Mean, sum.MeanCI)
			}
			for _, a := range sum.Axes {
				m, ok := b[strings.ReplaceAll(a.Name, "_", "-")]
				switch a.Name {
				case "alloc_bytes", "allocs":
					if !ok || m.Value != a.Stats.Mean {
						t.Errorf("%s: %s %+v, want %g", r.CaseName(i), a.Name, m, a.Stats.Mean)
					}
				}
			}
			n++
		}
	}
	if len(doc) != n {
		t.Errorf("%d benchmarks for %d cases", len(doc), n)
	}
}

// TestBMFThroughput: a case that declared its work units has Bencher's
// throughput, its units per second with their interval.
func TestBMFThroughput(t *testing.T) {
	recs := teleRun("bbbb2222-0000-4000-8000-000000000002", 12, []float64{2e6, 1.8e6}, "old", "new")
	run := recs[0].(*ndjson.Run)
	for i := range run.Cases {
		run.Cases[i].WorkUnits = 1000
	}
	s := analyzed(t, recs)
	doc := renderBMF(t, s)
	for i, name := range []string{"old", "new"} {
		tp := s.Runs[0].Summary(i).Throughput
		got := doc[name]["throughput"]
		if tp == nil || got.Value != tp.UnitsPerSec || got.Lower == nil || *got.Lower != tp.CI[0] {
			t.Errorf("%s: throughput %+v, summary %+v", name, got, tp)
		}
	}
}

// TestBMFOnlyMeasured: an axis without a value is never a measure.
func TestBMFOnlyMeasured(t *testing.T) {
	runs := axesFixtureRuns(t)
	doc := renderBMF(t, &model.Stream{Runs: runs})
	for _, r := range runs {
		for i := range r.Run.Cases {
			sum := r.Summary(i)
			if sum == nil {
				continue
			}
			for _, a := range sum.Axes {
				if _, ok := doc[r.CaseName(i)][strings.ReplaceAll(a.Name, "_", "-")]; ok && a.Stats == nil {
					t.Errorf("%s: %s (%s) written without a value", r.CaseName(i), a.Name, a.Status)
				}
			}
		}
	}
}

// TestRunFormatsRefuseRecordings: Go's and Bencher's formats hold runs;
// a stream of recordings alone is refused, with nothing written.
func TestRunFormatsRefuseRecordings(t *testing.T) {
	s := recordingStream(t)
	for _, f := range []string{"gobench", "bmf"} {
		var buf bytes.Buffer
		err := WriteStream(&buf, s, Options{Format: f})
		if err == nil || !strings.Contains(err.Error(), "no run records") || buf.Len() != 0 {
			t.Errorf("%s: %v, %d bytes", f, err, buf.Len())
		}
	}
}
