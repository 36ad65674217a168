package analyze

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// exactStream is a paired run of 20 units with a custom axis "nodes"
// declared exact (the reference reports ref(u), the contender con(u) in
// unit u) and the counter axis instructions_sim, whose counter records
// carry refCounts and conCounts (nil: status probe_failed).
func exactStream(t *testing.T, ref, con func(u int) float64, refCounts, conCounts []float64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "r-x", Tool: "fb-pair", Mode: "exec", Design: ndjson.DesignPaired, Batching: "equal-time",
		Cases: []ndjson.Case{{Index: 0, Name: "old"}, {Index: 1, Name: "new"}}, Clock: ndjson.Clock{Backend: "fake", NominalNS: 1},
		Axes: []ndjson.AxisInfo{
			{Name: "wall", Unit: "ns/op", Family: "time", Direction: "lower", Status: "collected"},
			{Name: "nodes", Unit: "nodes/op", Family: "custom", Direction: "lower", Status: "collected", Comparison: "exact"},
			{Name: "instructions_sim", Unit: "instructions/op", Family: "simulated", Direction: "lower", Status: "collected", Comparison: "exact"},
		}}
	run.Config.Samples = 20
	must(t, w.Write(run))
	for c, counts := range [][]float64{refCounts, conCounts} {
		rec := &ndjson.Counter{RunID: "r-x", Case: c, Name: run.Cases[c].Name, Axis: "instructions_sim", Unit: "instructions/op",
			Status: "probe_failed", Reason: "under valgrind the command failed: exit status 1"}
		if counts != nil {
			v := counts[0]
			rec.Status, rec.Reason, rec.Value, rec.Values, rec.Runs = "collected", "", &v, counts, len(counts)
		}
		must(t, w.Write(rec))
	}
	for u, order := range schedule.Paired(20, 1).Units {
		for pos, c := range order {
			v := ref(u)
			if c == 1 {
				v = con(u)
			}
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: pos, Iter: 10, WallNS: 1000 + int64(u), OpNS: 100 + float64(u)/10,
				Axes: map[string]ndjson.AxisValue{"nodes": ndjson.Collected(v)}}))
		}
	}
	must(t, w.Write(&ndjson.End{RunID: "r-x", Reason: ndjson.EndCompleted, Units: 20, Samples: []int{20, 20}}))
	return buf.Bytes()
}

func constant(v float64) func(int) float64 { return func(int) float64 { return v } }

// axisOf is the axis called name of a comparison.
func axisOf(t *testing.T, c ndjson.Comparison, name string) ndjson.AxisComparison {
	t.Helper()
	for _, a := range c.Axes {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("comparison has no axis %s: %+v", name, c.Axes)
	return ndjson.AxisComparison{}
}

func TestExactVerdicts(t *testing.T) {
	for _, tc := range []struct {
		name    string
		con     func(int) float64
		counts  []float64
		verdict string
		change  float64
	}{
		{"same", constant(100), []float64{5000, 5000, 5000}, ndjson.VerdictExactSame, 0},
		{"increased", constant(120), []float64{5020, 5020, 5020}, ndjson.VerdictExactIncreased, 20},
		{"decreased", constant(99.5), []float64{4999.5, 4999.5, 4999.5}, ndjson.VerdictExactDecreased, -0.5},
	} {
		res, _ := analyzeBytes(t, exactStream(t, constant(100), tc.con, []float64{5000, 5000, 5000}, tc.counts), DefaultOptions)
		c := res.comparisons[0]
		for _, name := range []string{"nodes", "instructions_sim"} {
			a := axisOf(t, c, name)
			want := tc.change
			if name == "instructions_sim" {
				want = tc.counts[0] - 5000
			}
			r := a.Result
			if !a.Available || r == nil || r.Method != ndjson.AxisMethodExact || r.Verdict != tc.verdict ||
				r.Change != want || r.CI != [2]float64{want, want} || r.BlockLen != 0 {
				t.Errorf("%s %s: %+v %+v", tc.name, name, a, r)
			}
		}
		if n := axisOf(t, c, "nodes").Result.N; n != 20 {
			t.Errorf("%s: nodes compared %d values per side, want 20", tc.name, n)
		}
		if len(c.Warnings) != 0 {
			t.Errorf("%s: warnings %q", tc.name, c.Warnings)
		}
	}
}

// TestExactVaries: a count that varies within a side is not
// deterministic, whatever its medians, and the comparison says which axis
// and by how much.
func TestExactVaries(t *testing.T) {
	wobble := func(u int) float64 { return 100 + float64(u%2) }
	res, _ := analyzeBytes(t, exactStream(t, constant(100), wobble, []float64{5000, 5000, 5000}, []float64{5000, 5004, 5001}), DefaultOptions)
	c := res.comparisons[0]
	for _, name := range []string{"nodes", "instructions_sim"} {
		if v := axisOf(t, c, name).Result.Verdict; v != ndjson.VerdictExactVaries {
			t.Errorf("%s: verdict %q", name, v)
		}
	}
	if len(c.Warnings) != 2 ||
		!strings.Contains(c.Warnings[0], "nodes is compared exactly but its values vary") ||
		!strings.Contains(c.Warnings[0], "old spread 0 nodes/op over 20 values, new spread 1 nodes/op over 20 values") ||
		!strings.Contains(c.Warnings[1], "instructions_sim") || !strings.Contains(c.Warnings[1], "new spread 4 instructions/op over 3 values") {
		t.Fatalf("warnings %q", c.Warnings)
	}
	if r := axisOf(t, c, "instructions_sim").Result; r.RefMedian != 5000 || r.ConMedian != 5001 || r.Change != 1 {
		t.Errorf("medians %+v", r)
	}
}

// TestCounterSummaryAndPassThrough: each case's summary carries its
// counts; counter records pass through unchanged; a case whose count
// failed leaves the comparison unavailable with the reason.
func TestCounterSummaryAndPassThrough(t *testing.T) {
	in := exactStream(t, constant(100), constant(100), []float64{5000, 5000, 5000}, nil)
	res, out := analyzeBytes(t, in, DefaultOptions)
	for _, line := range strings.Split(string(in), "\n") {
		if strings.Contains(line, `"type":"counter"`) && !bytes.Contains(out, []byte(line+"\n")) {
			t.Errorf("counter record changed or dropped: %s", line)
		}
	}
	var sum *ndjson.AxisSummary
	for i, a := range res.summaries[0].Axes {
		if a.Name == "instructions_sim" {
			sum = &res.summaries[0].Axes[i]
		}
	}
	if sum == nil || sum.N != 3 || sum.Stats == nil || sum.Stats.Median != 5000 || sum.Stats.MeanCI != [2]float64{5000, 5000} {
		t.Fatalf("summary axis %+v", sum)
	}
	last := res.summaries[1].Axes[len(res.summaries[1].Axes)-1]
	if last.Name != "instructions_sim" || last.Status != "probe_failed" || last.N != 0 || last.Stats != nil {
		t.Fatalf("failed count summarized as %+v", last)
	}
	a := axisOf(t, res.comparisons[0], "instructions_sim")
	if a.Available || a.Result != nil || a.Status != "probe_failed" || a.Reason != "new: under valgrind the command failed: exit status 1" {
		t.Fatalf("comparison axis %+v", a)
	}
}

// TestStreamWords: the words the lower packages record (pkg/stats'
// methods and estimators, internal/schedule's orientations) are the
// stream's words for them, which fb-noise, fb-check and fb-report read
// back.
func TestStreamWords(t *testing.T) {
	for got, want := range map[string]string{
		stats.RelativeRatio.String():      ndjson.AxisMethodRelative,
		stats.AbsoluteDifference.String(): ndjson.AxisMethodAbsolute,
		string(stats.EstimatorRobust):     ndjson.EstimatorRobust,
		string(stats.EstimatorMean):       ndjson.EstimatorMean,
		schedule.OrientAB:                 ndjson.OrientAB,
		schedule.OrientBA:                 ndjson.OrientBA,
		schedule.OrientForward:            ndjson.OrientForward,
		schedule.OrientReverse:            ndjson.OrientReverse,
		stats.RunMethodBCa:                ndjson.ProcessBCa,
		stats.RunMethodT:                  ndjson.ProcessT,
		stats.RunMethodPercentile:         ndjson.ProcessPercentile,
	} {
		if got != want {
			t.Errorf("recorded %q, the stream's word is %q", got, want)
		}
	}
}
