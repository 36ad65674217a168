package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/flybench/flybench/internal/importer"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// hyperfineFields is the field set of a result in hyperfine 1.x's
// --export-json output (parameters only for a parameter scan, hyperfine
// 1.20's memory_usage_byte only where every sample has rss_peak).
var hyperfineFields = []string{"command", "mean", "stddev", "median", "user", "system", "min", "max", "times", "exit_codes"}

func renderHyperfine(t *testing.T, runs []*model.Run) []byte {
	t.Helper()
	var buf bytes.Buffer
	check(t, Write(&buf, runs, Options{Format: "hyperfine-json"}))
	return buf.Bytes()
}

func TestHyperfineGolden(t *testing.T) {
	golden(t, "hyperfine-json.golden", renderHyperfine(t, fixtureRuns(t)))
	golden(t, "hyperfine-json-axes.golden", renderHyperfine(t, loadFixture(t, axesFixtureStream(t), "fixture-axes.ndjson")))
}

func TestHyperfineFieldSet(t *testing.T) {
	var doc struct {
		Results []map[string]json.RawMessage `json:"results"`
	}
	check(t, json.Unmarshal(renderHyperfine(t, fixtureRuns(t)), &doc))
	if len(doc.Results) == 0 {
		t.Fatal("no results")
	}
	for i, r := range doc.Results {
		for _, f := range hyperfineFields {
			if _, ok := r[f]; !ok {
				t.Errorf("result %d lacks %q", i, f)
			}
		}
		for f := range r {
			if !slices.Contains(hyperfineFields, f) && f != "parameters" && f != "memory_usage_byte" {
				t.Errorf("result %d has %q, not a hyperfine field", i, f)
			}
		}
		if string(r["user"]) != "null" || string(r["system"]) != "null" {
			t.Errorf("result %d: user %s system %s, want null (flybench does not split cpu time)", i, r["user"], r["system"])
		}
	}
}

// TestHyperfineStatistics checks the statistics on a stream built here.
func TestHyperfineStatistics(t *testing.T) {
	r := hfRun([]float64{3e6, 1e6, 2e6, 10e6}, false)
	var doc hyperfineDoc
	check(t, json.Unmarshal(renderHyperfine(t, []*model.Run{r}), &doc))
	got := doc.Results[0]
	if got.Command != "./prog --n {n}" || got.Parameters["n"] != "4" {
		t.Errorf("command %q parameters %v", got.Command, got.Parameters)
	}
	// seq order: the samples were given out of order (seq 1, 0, 3, 2).
	if want := []float64{0.001, 0.003, 0.01, 0.002}; !slices.Equal(got.Times, want) {
		t.Errorf("times %v, want %v", got.Times, want)
	}
	sd := math.Sqrt(50.0/3) * 1e-3 // deviations -1, -3, -2, 6 ms
	if math.Abs(got.Mean-0.004) > 1e-12 || got.Stddev == nil || math.Abs(*got.Stddev-sd) > 1e-12 {
		t.Errorf("mean %g stddev %v, want 0.004 and %g", got.Mean, got.Stddev, sd)
	}
	if got.Median != 0.0025 || got.Min != 0.001 || got.Max != 0.01 {
		t.Errorf("median %g min %g max %g", got.Median, got.Min, got.Max)
	}
	if !slices.Equal(got.ExitCodes, []int{0, 0, 0, 0}) {
		t.Errorf("exit codes %v", got.ExitCodes)
	}
}

func TestHyperfineOneTimeAndIgnoredFailures(t *testing.T) {
	out := renderHyperfine(t, []*model.Run{hfRun([]float64{5e6}, true)})
	var doc map[string][]map[string]json.RawMessage
	check(t, json.Unmarshal(out, &doc))
	r := doc["results"][0]
	if string(r["stddev"]) != "null" || string(r["exit_codes"]) != "null" || string(r["median"]) != "0.005" {
		t.Errorf("stddev %s exit_codes %s median %s, want null, null, 0.005", r["stddev"], r["exit_codes"], r["median"])
	}
}

func TestHyperfineRawStreamAndEmpty(t *testing.T) {
	r := hfRun([]float64{1e6, 2e6}, false)
	r.Analysis = nil
	renderHyperfine(t, []*model.Run{r})
	var nae *model.NotAnalyzedError
	if err := Write(&bytes.Buffer{}, []*model.Run{r}, Options{Format: "json"}); !errors.As(err, &nae) {
		t.Errorf("json of a raw stream: %v, want NotAnalyzedError", err)
	}
	if err := Write(&bytes.Buffer{}, nil, Options{Format: "hyperfine-json"}); !errors.As(err, &nae) {
		t.Errorf("an empty stream: %v, want NotAnalyzedError", err)
	}
}

// TestHyperfineRoundTrip imports the export with fb-import's hyperfine
// reader and checks every time survives, to the nanosecond.
func TestHyperfineRoundTrip(t *testing.T) {
	runs := fixtureRuns(t)
	res, err := importer.Import("hyperfine", "export.json", renderHyperfine(t, runs), importer.Options{})
	check(t, err)
	var want, got [][]float64
	for _, r := range runs {
		for i := range r.Run.Cases {
			if ts := caseSeconds(t, r, i); len(ts) > 0 {
				want = append(want, ts)
			}
		}
	}
	byCase := map[int][]float64{}
	for _, rec := range res.Records {
		if s, ok := rec.(*ndjson.Sample); ok {
			byCase[s.Case] = append(byCase[s.Case], float64(s.WallNS))
		}
	}
	for i := range want {
		got = append(got, byCase[i])
	}
	if len(got) != len(want) {
		t.Fatalf("%d cases imported, want %d", len(got), len(want))
	}
	for i := range want {
		for k := range want[i] {
			want[i][k] = math.Round(want[i][k] * 1e9)
		}
		slices.Sort(want[i])
		slices.Sort(got[i])
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("case %d: imported %v, exported %v", i, got[i], want[i])
		}
	}
}

// hfRun is a one-case run whose samples have the given op_ns, with seq
// swapped in pairs so collection order differs from stream order.
func hfRun(opNS []float64, ignoreFailure bool) *model.Run {
	r := &model.Run{Analysis: &ndjson.Analysis{}}
	r.Run.Config.IgnoreFailure = ignoreFailure
	r.Run.Cases = []ndjson.Case{{Name: "n=4", Command: "./prog --n {n}", Params: map[string]string{"n": "4"}}}
	for k, v := range opNS {
		seq := k ^ 1
		if seq >= len(opNS) {
			seq = k
		}
		r.Times = append(r.Times, model.Time{Seq: seq, OpNS: v})
	}
	return r
}

func TestHyperfineRefusesRecordings(t *testing.T) {
	var nae *model.NotAnalyzedError
	err := WriteStream(&bytes.Buffer{}, recordingStream(t), Options{Format: "hyperfine-json"})
	if !errors.As(err, &nae) {
		t.Errorf("a stream of recordings: %v, want NotAnalyzedError", err)
	}
}

// caseSeconds are case i's per-operation times in seconds, in collection
// order.
func caseSeconds(t *testing.T, r *model.Run, i int) []float64 {
	var mine []ndjson.Sample
	for k := range r.Samples.Len() {
		s, err := r.Samples.Sample(k)
		if err != nil {
			t.Fatal(err)
		}
		if s.Case == i {
			mine = append(mine, s)
		}
	}
	slices.SortStableFunc(mine, func(a, b ndjson.Sample) int { return a.Seq - b.Seq })
	times := make([]float64, len(mine))
	for k, s := range mine {
		times[k] = s.OpNS / 1e9
	}
	return times
}

// hyperfineDoc is what the tests read of hyperfine's --export-json schema.
type hyperfineDoc struct {
	Results []struct {
		Command    string            `json:"command"`
		Mean       float64           `json:"mean"`
		Stddev     *float64          `json:"stddev"`
		Median     float64           `json:"median"`
		Min        float64           `json:"min"`
		Max        float64           `json:"max"`
		Times      []float64         `json:"times"`
		Memory     []uint64          `json:"memory_usage_byte"`
		ExitCodes  []int             `json:"exit_codes"`
		Parameters map[string]string `json:"parameters"`
	} `json:"results"`
}

// TestHyperfineMemoryUsage: every sample's rss_peak, in collection order,
// is memory_usage_byte; a case with a sample without one (an upper bound
// only) has none; fb-import reads it back as upper bounds.
func TestHyperfineMemoryUsage(t *testing.T) {
	r := hfRun([]float64{3e6, 1e6, 2e6}, false)
	for k, mib := range []float64{5, 6, 7} {
		v := mib * (1 << 20)
		r.Times[k].PeakBytes = &v
	}
	out := renderHyperfine(t, []*model.Run{r})
	var doc hyperfineDoc
	check(t, json.Unmarshal(out, &doc))
	if want := []uint64{6 << 20, 5 << 20, 7 << 20}; !slices.Equal(doc.Results[0].Memory, want) {
		t.Errorf("memory_usage_byte %v, want %v (seq order)", doc.Results[0].Memory, want)
	}
	res, err := importer.Import("hyperfine", "export.json", out, importer.Options{})
	check(t, err)
	var reasons []string
	for _, rec := range res.Records {
		if s, ok := rec.(*ndjson.Sample); ok {
			reasons = append(reasons, s.Axes["rss_peak"].S+": "+s.Axes["rss_peak"].R)
		}
	}
	if len(reasons) != 3 || reasons[0] != "unattributable: an upper bound only: the run's peak is at most 6.0 MiB (hyperfine's memory_usage_byte)" {
		t.Errorf("imported rss_peak %q", reasons)
	}
	r.Times[1].PeakBytes = nil
	var partial map[string][]map[string]json.RawMessage
	check(t, json.Unmarshal(renderHyperfine(t, []*model.Run{r}), &partial))
	if m, ok := partial["results"][0]["memory_usage_byte"]; ok {
		t.Errorf("memory_usage_byte %s with a sample lacking rss_peak, want none", m)
	}
}
