package analyze

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
)

// referenceStream writes a complete run of len(cases) cases in rounds (or
// pairs, for two): in unit u case c takes op(c, u) ns/op.
func referenceStream(t *testing.T, n int, cases []ndjson.Case, op func(c, u int) float64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	k := len(cases)
	run := &ndjson.Run{RunID: "r-ref", Tool: "fb-pair", Design: ndjson.DesignRounds, Batching: "equal-time",
		Cases: cases, Clock: ndjson.Clock{Backend: "fake", NominalNS: 1}}
	plan := schedule.Rounds(n, k, 3)
	if k == 2 {
		run.Design, plan = ndjson.DesignPaired, schedule.Paired(n, 3)
	}
	run.Config.Samples = n
	must(t, w.Write(run))
	seq := 0
	for u, order := range plan.Units {
		for pos, c := range order {
			v := op(c, u)
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: seq, Iter: 10, WallNS: int64(v * 10), OpNS: v}))
			seq++
		}
	}
	samples := make([]int, k)
	for i := range samples {
		samples[i] = n
	}
	must(t, w.Write(&ndjson.End{RunID: "r-ref", Reason: ndjson.EndCompleted, Units: n, Samples: samples}))
	return buf.Bytes()
}

// threeWithReference are two measured cases and the reference workload.
var threeWithReference = []ndjson.Case{{Index: 0, Name: "old"}, {Index: 1, Name: "new"},
	{Index: 2, Name: "reference-workload (int)", Role: ndjson.RoleReferenceWorkload}}

// refTimes: the reference varies from unit to unit, old takes exactly
// twice its time and new 1.5 times, so the scores are exactly 2 and 1.5.
func refTimes(c, u int) float64 {
	ref := 1000 + 37*float64(u%7)
	return ref * []float64{2, 1.5, 1}[c]
}

func TestScoreCombinesIntervalsInQuadrature(t *testing.T) {
	s := &ndjson.Summary{Mean: 200, MeanCI: [2]float64{190, 210}} // ±5%
	r := &ndjson.Summary{Mean: 100, MeanCI: [2]float64{97, 103}}  // ±3%
	got := Score(s, r, 2)
	h := math.Sqrt(0.05*0.05 + 0.03*0.03)
	want := ndjson.Normalized{ReferenceCase: 2, Score: 2, CI: [2]float64{2 * (1 - h), 2 * (1 + h)}}
	if got == nil || got.ReferenceCase != want.ReferenceCase || got.Score != want.Score ||
		math.Abs(got.CI[0]-want.CI[0]) > 1e-12 || math.Abs(got.CI[1]-want.CI[1]) > 1e-12 {
		t.Fatalf("Score = %+v, want %+v", got, want)
	}
	wide := Score(&ndjson.Summary{Mean: 100, MeanCI: [2]float64{0, 200}}, r, 2) // ±100% and ±3%
	if wide.CI[0] != 0 || !(wide.CI[1] > 2) {
		t.Fatalf("a relative half-width above 1 gives %v; want the lower end at 0", wide.CI)
	}
	if Score(s, &ndjson.Summary{}, 2) != nil {
		t.Fatal("a reference without a positive mean must give no score")
	}
}

func TestReferenceWorkloadIsScoredNotCompared(t *testing.T) {
	res, _ := analyzeBytes(t, referenceStream(t, 30, threeWithReference, refTimes), DefaultOptions)
	if len(res.summaries) != 3 {
		t.Fatalf("%d summaries, want 3", len(res.summaries))
	}
	if len(res.comparisons) != 1 || res.comparisons[0].Contender != 1 {
		t.Fatalf("comparisons %+v: want only new against old, never the reference workload", res.comparisons)
	}
	ref := res.summaries[2]
	if ref.Normalized != nil {
		t.Fatalf("the reference workload has a score of its own: %+v", ref.Normalized)
	}
	for c, want := range []float64{2, 1.5} {
		s := res.summaries[c]
		n := s.Normalized
		if n == nil || n.ReferenceCase != 2 || math.Abs(n.Score-want) > 1e-12 {
			t.Fatalf("case %d: normalized %+v, want score %g of case 2", c, n, want)
		}
		h := math.Hypot((s.MeanCI[1]-s.MeanCI[0])/(2*s.Mean), (ref.MeanCI[1]-ref.MeanCI[0])/(2*ref.Mean))
		if !(h > 0) || n.CI != [2]float64{n.Score * (1 - h), n.Score * (1 + h)} {
			t.Fatalf("case %d: interval %v, want %g·(1 ∓ %g)", c, n.CI, n.Score, h)
		}
	}
}

func TestNoReferenceNoScores(t *testing.T) {
	res, _ := analyzeBytes(t, referenceStream(t, 30, []ndjson.Case{{Index: 0, Name: "a"}, {Index: 1, Name: "b"}, {Index: 2, Name: "c"}}, refTimes), DefaultOptions)
	for _, s := range res.summaries {
		if s.Normalized != nil {
			t.Fatalf("case %d scored without a reference workload", s.Case)
		}
	}
	if len(res.comparisons) != 2 {
		t.Fatalf("%d comparisons, want 2", len(res.comparisons))
	}
}

func TestBadRolesAreRefused(t *testing.T) {
	for _, tc := range []struct {
		cases []ndjson.Case
		want  string
	}{
		{[]ndjson.Case{{Index: 0, Name: "r", Role: ndjson.RoleReferenceWorkload}, {Index: 1, Name: "b"}}, "case 0 is the reference of every comparison"},
		{[]ndjson.Case{{Index: 0, Name: "a"}, {Index: 1, Name: "r", Role: ndjson.RoleReferenceWorkload}, {Index: 2, Name: "s", Role: ndjson.RoleReferenceWorkload}}, "2 cases have the role"},
		{[]ndjson.Case{{Index: 0, Name: "a"}, {Index: 1, Name: "b", Role: "judge"}}, `unknown role "judge"`},
	} {
		in := referenceStream(t, 10, tc.cases, func(c, u int) float64 { return 100 })
		var out bytes.Buffer
		err := Stream(ndjson.NewReader(bytes.NewReader(in), "in"), ndjson.NewWriter(&out), DefaultOptions)
		if err == nil || !strings.Contains(err.Error(), "in:1: bad run record") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("roles %+v: error %v, want line 1 and %q", tc.cases, err, tc.want)
		}
	}
}

func TestNormalizedOpsPerUnit(t *testing.T) {
	run, samples := decodeRun(t, referenceStream(t, 12, threeWithReference, refTimes))
	for c, want := range []float64{2, 1.5} {
		got, err := NormalizedOps(run, samples, c)
		if err != nil || len(got) != 12 {
			t.Fatalf("case %d: %d values, %v", c, len(got), err)
		}
		for i, v := range got {
			if v != want {
				t.Fatalf("case %d unit %d: %g, want %g", c, i, v, want)
			}
		}
	}
	if _, err := NormalizedOps(run, samples, 2); err == nil || !strings.Contains(err.Error(), "not a measured case") {
		t.Fatalf("the reference workload's own series: %v", err)
	}
	run.Cases[2].Role = ""
	if _, err := NormalizedOps(run, samples, 0); err == nil || !strings.Contains(err.Error(), "no reference workload") {
		t.Fatalf("a run without a reference workload: %v", err)
	}
}

func TestCheckpointSkipsTheReferenceWorkload(t *testing.T) {
	run, samples := decodeRun(t, referenceStream(t, 30, threeWithReference, refTimes))
	iv, err := Checkpoint(run, samples, DefaultOptions)
	if err != nil || len(iv) != 1 || iv[0].Contender != 1 {
		t.Fatalf("look intervals %+v, %v: want new against old only", iv, err)
	}
	// One measured case and the reference workload (fb-sample --reference):
	// the look judges the measured case's mean, as without a reference.
	two := []ndjson.Case{{Index: 0, Name: "cmd"}, {Index: 1, Name: "reference-workload (mem)", Role: ndjson.RoleReferenceWorkload}}
	run, samples = decodeRun(t, referenceStream(t, 30, two, refTimes))
	iv, err = Checkpoint(run, samples, DefaultOptions)
	if err != nil || len(iv) != 1 || iv[0].Contender != 0 || !(iv[0].HalfWidthPct > 0) {
		t.Fatalf("look intervals %+v, %v: want the mean interval of case 0", iv, err)
	}
}

// decodeRun reads a stream's run record and samples.
func decodeRun(t *testing.T, in []byte) (ndjson.Run, []ndjson.Sample) {
	t.Helper()
	r := ndjson.NewReader(bytes.NewReader(in), "in")
	var run ndjson.Run
	var samples []ndjson.Sample
	for {
		l, err := r.Next()
		if err != nil {
			return run, samples
		}
		switch l.Type {
		case ndjson.TypeRun:
			must(t, r.Decode(l, &run))
		case ndjson.TypeSample:
			var s ndjson.Sample
			must(t, r.Decode(l, &s))
			samples = append(samples, s)
		}
	}
}
