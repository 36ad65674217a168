package analyze

import (
	"bytes"
	"errors"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
)

// pairedStream writes a complete two-case run: in unit u the reference
// takes ref(u) ns/op and the contender con(u), in the order plan gives.
func pairedStream(t *testing.T, n int, ref, con func(u int) float64, end bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "r-1", Tool: "fb-pair", Design: ndjson.DesignPaired, Batching: "equal-time",
		Cases: []ndjson.Case{{Index: 0, Name: "old"}, {Index: 1, Name: "new"}},
		Clock: ndjson.Clock{Backend: "fake", NominalNS: 1}}
	run.Config.Samples = n
	must(t, w.Write(run))
	must(t, w.Write(&ndjson.Calibration{Case: 0, Name: "old", Iterations: 10}))
	seq := 0
	for u, order := range schedule.Paired(n, 1).Units {
		for pos, c := range order {
			op := ref(u)
			if c == 1 {
				op = con(u)
			}
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: seq, Iter: 10, WallNS: int64(op * 10), OpNS: op}))
			seq++
		}
	}
	if end {
		must(t, w.Write(&ndjson.End{RunID: "r-1", Reason: ndjson.EndCompleted, Units: n, Samples: []int{n, n}}))
	}
	return buf.Bytes()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type result struct {
	passed       []string
	analysis     []ndjson.Analysis
	summaries    []ndjson.Summary
	comparisons  []ndjson.Comparison
	environments []ndjson.Environment
}

func analyzeBytes(t *testing.T, in []byte, opt Options) (result, []byte) {
	t.Helper()
	var out bytes.Buffer
	must(t, Stream(ndjson.NewReader(bytes.NewReader(in), "in"), ndjson.NewWriter(&out), opt))
	var res result
	r := ndjson.NewReader(bytes.NewReader(out.Bytes()), "out")
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return res, out.Bytes()
		}
		must(t, err)
		switch l.Type {
		case ndjson.TypeAnalysis:
			var a ndjson.Analysis
			must(t, r.Decode(l, &a))
			res.analysis = append(res.analysis, a)
		case ndjson.TypeSummary:
			var s ndjson.Summary
			must(t, r.Decode(l, &s))
			res.summaries = append(res.summaries, s)
		case ndjson.TypeComparison:
			var c ndjson.Comparison
			must(t, r.Decode(l, &c))
			res.comparisons = append(res.comparisons, c)
		case ndjson.TypeEnvironment:
			var e ndjson.Environment
			must(t, r.Decode(l, &e))
			res.environments = append(res.environments, e)
		default:
			res.passed = append(res.passed, l.Type)
		}
	}
}

func TestHandComputedComparison(t *testing.T) {
	// Reference 10, 20, ..., 100 ns/op; the contender always takes half.
	ref := func(u int) float64 { return float64(10 * (u + 1)) }
	con := func(u int) float64 { return ref(u) / 2 }
	res, _ := analyzeBytes(t, pairedStream(t, 10, ref, con, true), DefaultOptions)
	if len(res.summaries) != 2 || len(res.comparisons) != 1 || len(res.analysis) != 1 {
		t.Fatalf("got %d summaries, %d comparisons", len(res.summaries), len(res.comparisons))
	}
	s := res.summaries[0]
	// Median of 10..100 is 55, mean 55, sample sd sqrt(9166.67)=30.2765,
	// CV 55.05%; MAD: deviations 45,35,...,5 twice -> median 25.
	if s.N != 10 || s.Min != 10 || s.Max != 100 || s.Median != 55 || s.Mean != 55 || s.MAD != 25 {
		t.Fatalf("summary %+v", s)
	}
	if math.Abs(s.SD-30.276503540974915) > 1e-9 || math.Abs(s.CVPct-55.048188256318) > 1e-6 {
		t.Fatalf("sd %v cv %v", s.SD, s.CVPct)
	}
	// Batches of 10 iterations at 1 ns nominal resolution: floor 0.1 ns/op;
	// timed total = 10 * (10+...+100) = 5500 ns.
	if s.Iterations != 10 || s.FloorNS != 0.1 || s.TimedNS != 5500 || s.MedianBatchNS != 550 {
		t.Fatalf("batch facts %+v", s)
	}
	c := res.comparisons[0]
	if c.GeoSpeedup != 2 || c.MedianSpeedup != 2 || c.SpeedupCI != [2]float64{2, 2} {
		t.Fatalf("speedup %v median %v ci %v", c.GeoSpeedup, c.MedianSpeedup, c.SpeedupCI)
	}
	if c.ChangePct != -50 || c.Verdict != ndjson.VerdictContenderFaster || c.ContenderWins != 10 || c.Ties != 0 {
		t.Fatalf("comparison %+v", c)
	}
	// Mean paired difference: mean of -ref/2 = -27.5 ns/op.
	if c.MeanDiffNS != -27.5 || c.ReferenceFirst+c.ContenderFirst != 10 || c.ReferenceFirst != 5 {
		t.Fatalf("diff %v order %d/%d", c.MeanDiffNS, c.ReferenceFirst, c.ContenderFirst)
	}
	want := []string{"run", "calibration"}
	for i := 0; i < 20; i++ {
		want = append(want, "sample")
	}
	want = append(want, "end")
	if strings.Join(res.passed, ",") != strings.Join(want, ",") {
		t.Fatalf("pass-through %v", res.passed)
	}
}

func TestDeterministicBytes(t *testing.T) {
	ref := func(u int) float64 { return 100 + float64((u*37)%11) }
	con := func(u int) float64 { return 98 + float64((u*53)%13) }
	in := pairedStream(t, 50, ref, con, true)
	_, a := analyzeBytes(t, in, DefaultOptions)
	_, b := analyzeBytes(t, in, DefaultOptions)
	if !bytes.Equal(a, b) {
		t.Fatal("same input and options gave different output")
	}
	opt := DefaultOptions
	opt.Seed = 2
	_, c := analyzeBytes(t, in, opt)
	if bytes.Equal(a, c) {
		t.Fatal("a different seed changed nothing; is the seed used?")
	}
	// Re-analysis of analyzed output replaces the analysis, not duplicates it.
	res, again := analyzeBytes(t, a, DefaultOptions)
	if !bytes.Equal(a, again) || len(res.analysis) != 1 {
		t.Fatal("analyzing an analyzed stream must give the same stream")
	}
}

func TestCutShortStream(t *testing.T) {
	ref := func(u int) float64 { return 100 }
	in := pairedStream(t, 20, ref, ref, false)
	res, _ := analyzeBytes(t, in, DefaultOptions)
	if len(res.analysis) != 1 || res.analysis[0].Complete || !strings.Contains(res.analysis[0].Warnings[0], "cut short") {
		t.Fatalf("analysis %+v", res.analysis)
	}
	if c := res.comparisons[0]; c.Verdict != ndjson.VerdictEquivalent || c.Ties != 20 {
		t.Fatalf("identical sides: %+v", c)
	}
}

func TestBadLines(t *testing.T) {
	good := pairedStream(t, 10, func(int) float64 { return 5 }, func(int) float64 { return 5 }, true)
	lines := strings.Split(strings.TrimSpace(string(good)), "\n")
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"sample before run", lines[2] + "\n", "in:1: sample record before any run record"},
		{"case out of range", lines[0] + "\n" + regexp.MustCompile(`"case":\d`).ReplaceAllString(lines[2], `"case":7`) + "\n", "in:2: sample record for case 7, but run r-1 has 2 cases (0 to 1)"},
		{"zero iterations", lines[0] + "\n" + strings.Replace(lines[2], `"iter":10`, `"iter":0`, 1) + "\n", "in:2: sample with 0 iterations"},
		{"bad field type", lines[0] + "\n" + strings.Replace(lines[2], `"unit":0`, `"unit":"x"`, 1) + "\n", "in:2: bad sample record"},
		{"truncated line", lines[0] + "\n" + lines[2][:30] + "\n", "in:2: invalid JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Stream(ndjson.NewReader(strings.NewReader(tc.input), "in"), ndjson.NewWriter(&out), DefaultOptions)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestAnalysisOfEarlierRunSurvivesLaterBadLine(t *testing.T) {
	good := pairedStream(t, 10, func(int) float64 { return 5 }, func(int) float64 { return 4 }, true)
	in := append(append([]byte{}, good...), "not json\n"...)
	var out bytes.Buffer
	err := Stream(ndjson.NewReader(bytes.NewReader(in), "in"), ndjson.NewWriter(&out), DefaultOptions)
	if err == nil || !strings.Contains(out.String(), `"type":"comparison"`) {
		t.Fatalf("err %v; the first run's analysis must already be written", err)
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, o := range []Options{
		{Resamples: 99, Confidence: 95},
		{Resamples: 10001, Confidence: 95},
		{Resamples: 2000, Confidence: 49},
		{Resamples: 2000, Confidence: 100},
		{Resamples: 2000, Confidence: 95, ThresholdPct: -1},
		{Resamples: 2000, Confidence: 95, ThresholdPct: 100},
	} {
		if o.Validate() == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

func BenchmarkStream100k(b *testing.B) {
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "r", Design: ndjson.DesignPaired, Cases: []ndjson.Case{{Name: "a"}, {Name: "b"}}}
	_ = w.Write(run)
	for u := 0; u < 50000; u++ {
		for c := 0; c < 2; c++ {
			op := 100 + float64((u*31+c*7)%17)
			_ = w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: c, Seq: 2*u + c, Iter: 10, WallNS: int64(op * 10), OpNS: op})
		}
	}
	_ = w.Write(&ndjson.End{Reason: ndjson.EndCompleted})
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Stream(ndjson.NewReader(bytes.NewReader(in), "in"), ndjson.NewWriter(io.Discard), DefaultOptions); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(100002*b.N)/b.Elapsed().Seconds(), "records/s")
}

func TestEnvironmentReport(t *testing.T) {
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	must(t, w.Write(&ndjson.Lock{Outcome: ndjson.LockNamespaceScoped, Scope: "machine"}))
	must(t, w.Write(&ndjson.Gate{Outcome: ndjson.GatePassed}))
	run := &ndjson.Run{RunID: "r", Design: ndjson.DesignSingle, Cases: []ndjson.Case{{Name: "a"}}}
	run.Config.Placement = &ndjson.Placement{CPU: 1, Outcome: "strict", WatchedCPUs: []int{1}}
	must(t, w.Write(run))
	windows := []ndjson.Window{
		{Index: 0, Units: 5, Samples: 5, Judged: true, ForeignPct: 2, Verdict: "clean", Action: "kept", Attribution: "core_scoped"},
		{Index: 1, Units: 5, Samples: 5, Judged: true, ForeignPct: 40, Verdict: "contaminated", Action: "retaken", Attribution: "core_scoped"},
		{Index: 2, Units: 5, Samples: 5, Judged: true, ForeignPct: 30, Verdict: "contaminated", Action: "paused", PauseNS: 900, Attribution: "core_scoped"},
		{Index: 3, Units: 5, Samples: 5, Judged: true, ForeignPct: 20, Verdict: "contaminated", Action: "kept", Exhausted: true, Attribution: "core_scoped", Diluted: true},
		{Index: 4, Units: 1, Samples: 1, Judged: false, ForeignPct: 99, Verdict: "unjudged", Action: "kept", Attribution: "host_wide"},
	}
	for i := range windows {
		must(t, w.Write(&windows[i]))
	}
	for u := 0; u < 11; u++ {
		must(t, w.Write(&ndjson.Sample{Unit: u, Seq: u, Iter: 1, WallNS: 10, OpNS: 10}))
	}
	must(t, w.Write(&ndjson.End{RunID: "r", Reason: ndjson.EndCompleted, Units: 11, Samples: []int{11}, BudgetExhausted: true}))
	res, _ := analyzeBytes(t, buf.Bytes(), DefaultOptions)
	if len(res.environments) != 1 {
		t.Fatalf("%d environment records", len(res.environments))
	}
	e := res.environments[0]
	// Mean foreign share over every judged window, discarded ones too:
	// (2+40+30+20)/4 = 23; the unjudged 99% window never counts.
	if !e.Watched || e.Windows != 5 || e.MeanForeignPct != 23 || e.PeakForeignPct != 40 {
		t.Fatalf("foreign facts %+v", e)
	}
	if e.ObservedSamples != 11 || e.ContaminatedSample != 5 || e.RetakenSamples != 10 || e.Pauses != 1 || e.PausedNS != 900 {
		t.Fatalf("sample facts %+v", e)
	}
	if !e.BudgetExhausted || !e.AttributionDiluted || e.Attribution != "host_wide" || e.Lock != "namespace_scoped" || e.Gate != "passed" || e.Placement != "strict" {
		t.Fatalf("host facts %+v", e)
	}
	for _, p := range res.passed[:2] {
		if p != "lock" && p != "gate" {
			t.Fatalf("lock and gate must pass through first: %v", res.passed)
		}
	}
}

func TestCustomAxesKeepDeclaredComparison(t *testing.T) {
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "c", Design: ndjson.DesignPaired, Cases: []ndjson.Case{{Name: "a"}, {Name: "b"}},
		Clock: ndjson.Clock{NominalNS: 1},
		Timer: &ndjson.Timer{Kind: "self", Axis: "elapsed_ns", Source: "go-monotonic", ResolutionNS: 100}}
	run.Axes = []ndjson.AxisInfo{
		{Name: "wall", Unit: "ns/op", Direction: "lower", Status: "collected"},
		{Name: "items", Unit: "items/op", Family: "custom", Direction: "higher", Status: "collected", Comparison: "relative"},
		{Name: "hits", Unit: "hits/op", Family: "custom", Direction: "higher", Status: "collected", Comparison: "absolute"},
	}
	must(t, w.Write(run))
	for u := 0; u < 12; u++ {
		for c := 0; c < 2; c++ {
			items := float64(10 + c) // the reference has a zero in unit 0
			if c == 0 && u == 0 {
				items = 0
			}
			hits := float64(100 + 5*c + u%3)
			self := float64(1000 + 10*c)
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: c, Seq: 2*u + c, Iter: 10, WallNS: 20000, OpNS: self / 10, SelfNS: &self,
				Axes: map[string]ndjson.AxisValue{"items": ndjson.Collected(items), "hits": ndjson.Collected(hits)}}))
		}
	}
	must(t, w.Write(&ndjson.End{RunID: "c", Reason: ndjson.EndCompleted, Units: 12, Samples: []int{12, 12}}))
	res, _ := analyzeBytes(t, buf.Bytes(), DefaultOptions)
	byName := map[string]ndjson.AxisComparison{}
	for _, a := range res.comparisons[0].Axes {
		byName[a.Name] = a
	}
	if it := byName["items"]; it.Available || it.Status != "invalid_value" || !strings.Contains(it.Reason, "zero or negative") {
		t.Fatalf("relative custom axis with a zero: %+v", it)
	}
	if h := byName["hits"]; !h.Available || h.Result.Method != "absolute difference" || h.Result.Verdict != "contender better" || h.Result.Change != 5 {
		t.Fatalf("absolute custom axis: %+v %+v", h, h.Result)
	}
	// The self timer's 100 ns resolution over 10 operations: 10 ns/op floor.
	if s := res.summaries[0]; s.FloorNS != 10 || s.Median != 100 {
		t.Fatalf("summary floor %v median %v", s.FloorNS, s.Median)
	}
}
