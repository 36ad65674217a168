package analyze

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
)

// roundsRun writes a complete run of k cases in n units (paired for two
// cases, rounds for more): case c takes op(c, u) ns/op in unit u. Each
// axis of extra gets, in every sample, the sample's op times 1 + c/10,
// or, when the axis did not come up, its status.
func roundsRun(t *testing.T, id string, k, n int, op func(c, u int) float64, extra ...ndjson.AxisInfo) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	design, units := ndjson.DesignRounds, schedule.Rounds(n, k, 1).Units
	if k == 2 {
		design, units = ndjson.DesignPaired, schedule.Paired(n, 1).Units
	}
	run := &ndjson.Run{RunID: id, Tool: "fb-pair", Design: design, Batching: "equal-time",
		Clock: ndjson.Clock{Backend: "fake", NominalNS: 1}}
	for c := range k {
		run.Cases = append(run.Cases, ndjson.Case{Index: c, Name: fmt.Sprintf("c%d", c)})
	}
	if len(extra) > 0 {
		run.Axes = append([]ndjson.AxisInfo{{Name: "wall", Unit: "ns/op", Direction: "lower", Status: "collected"}}, extra...)
	}
	run.Config.Samples = n
	must(t, w.Write(run))
	seq := 0
	for u, order := range units {
		for pos, c := range order {
			v := op(c, u)
			s := &ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: seq, Iter: 10, WallNS: int64(v * 10), OpNS: v}
			for _, a := range extra {
				if s.Axes == nil {
					s.Axes = map[string]ndjson.AxisValue{}
				}
				s.Axes[a.Name] = ndjson.AxisValue{S: a.Status}
				if a.Status == "collected" {
					s.Axes[a.Name] = ndjson.Collected(v * (1 + float64(c)/10))
				}
			}
			must(t, w.Write(s))
			seq++
		}
	}
	samples := make([]int, k)
	for c := range samples {
		samples[c] = n
	}
	must(t, w.Write(&ndjson.End{RunID: id, Reason: ndjson.EndCompleted, Units: n, Samples: samples}))
	return buf.Bytes()
}

// noisy is case c's time in unit u: 1000 ns, 2% slower per case index,
// with deterministic noise of a few percent.
func noisy(c, u int) float64 {
	return 1000 * (1 + 0.02*float64(c)) * (1 + 0.03*math.Sin(float64(7*u+13*c)))
}

func TestFamilyLevels(t *testing.T) {
	for _, c := range []struct {
		k     int
		level float64
	}{{2, 95}, {4, 98.333333333}, {16, 99.666666667}} {
		res, _ := analyzeBytes(t, roundsRun(t, "r", c.k, 40, noisy), DefaultOptions)
		f := res.analysis[0].Family
		want := ndjson.Family{Method: "bonferroni", Scope: "time", M: c.k - 1, FamilyConfidencePct: 95, PerComparisonPct: c.level}
		if f == nil || *f != want {
			t.Errorf("k=%d: family %+v, want %+v", c.k, f, want)
		}
		if len(res.comparisons) != c.k-1 {
			t.Fatalf("k=%d: %d comparisons", c.k, len(res.comparisons))
		}
		for _, k := range res.comparisons {
			if k.ConfidencePct != c.level {
				t.Errorf("k=%d: comparison %d at %v%%, want %v%%", c.k, k.Contender, k.ConfidencePct, c.level)
			}
		}
		if res.analysis[0].ConfidencePct != 95 || res.summaries[0].MeanCI == [2]float64{} {
			t.Errorf("k=%d: the analysis's own level moved to %v", c.k, res.analysis[0].ConfidencePct)
		}
	}
}

// A single comparison is its own family: the output is what it was
// before families, apart from the family itself.
func TestFamilyOfOneChangesNothingElse(t *testing.T) {
	in := roundsRun(t, "r", 2, 40, noisy)
	_, with := analyzeBytes(t, in, DefaultOptions)
	opt := DefaultOptions
	opt.Family.Multiplicity = MultiplicityNone
	_, without := analyzeBytes(t, in, opt)
	strip := regexp.MustCompile(`,"family":\{[^}]*\}`)
	if !bytes.Equal(strip.ReplaceAll(with, nil), strip.ReplaceAll(without, nil)) {
		t.Errorf("a family of one changed more than the family field:\n%s\n%s", with, without)
	}
	if !bytes.Contains(with, []byte(`"family":{"method":"bonferroni","scope":"time","m":1,"family_confidence_pct":95,"per_comparison_pct":95}`)) {
		t.Errorf("no family of one in %s", with)
	}
}

func TestFamilyNoneIsExploratory(t *testing.T) {
	opt := DefaultOptions
	opt.Family.Multiplicity = MultiplicityNone
	res, _ := analyzeBytes(t, roundsRun(t, "r", 4, 40, noisy), opt)
	f := res.analysis[0].Family
	want := ndjson.Family{Method: "none", Scope: "time", M: 3, FamilyConfidencePct: 85, PerComparisonPct: 95, Exploratory: true}
	if f == nil || *f != want {
		t.Errorf("family %+v, want %+v", f, want)
	}
	for _, k := range res.comparisons {
		if k.ConfidencePct != 95 {
			t.Errorf("comparison %d at %v%%, want 95%%", k.Contender, k.ConfidencePct)
		}
	}
}

func TestFamilyConfidenceFlagAndReferenceWorkload(t *testing.T) {
	in := roundsRun(t, "r", 5, 40, noisy)
	in = bytes.Replace(in, []byte(`"name":"c4"`), []byte(`"name":"c4","role":"reference-workload"`), 1)
	opt := DefaultOptions
	opt.Family.ConfidencePct = 90
	res, _ := analyzeBytes(t, in, opt)
	if f := res.analysis[0].Family; f == nil || f.M != 3 || f.FamilyConfidencePct != 90 || f.PerComparisonPct != 96.666666667 {
		t.Errorf("family %+v: want m=3 (the reference workload left out) at 96.67%% for 90%%", f)
	}
}

func TestFamilyAllCountsVerdictAxes(t *testing.T) {
	axes := []ndjson.AxisInfo{
		{Name: "faults", Unit: "faults/op", Direction: "lower", Status: "collected"},
		{Name: "ipc", Unit: "ratio", Direction: "diagnostic", Status: "collected"},
		{Name: "cycles", Unit: "cycles/op", Direction: "lower", Status: "unsupported_event"},
	}
	in := roundsRun(t, "r", 3, 40, noisy, axes...)
	res, _ := analyzeBytes(t, in, DefaultOptions)
	f := res.analysis[0].Family
	if f == nil || f.M != 2 || f.PerComparisonPct != 97.5 || f.AxisConfidencePct != 95 {
		t.Fatalf("family time %+v: want m=2 at 97.5%%, axes at 95%%", f)
	}
	opt := DefaultOptions
	opt.Family.Scope = FamilyAll
	all, _ := analyzeBytes(t, in, opt)
	f = all.analysis[0].Family
	// two contenders, each with time and faults; ipc is diagnostic and
	// cycles never came up
	if f == nil || f.M != 4 || f.PerComparisonPct != 98.75 || f.AxisConfidencePct != 95 {
		t.Fatalf("family all %+v: want m=4 at 98.75%%, the diagnostic axis at 95%%", f)
	}
	faults, fTime := axisWidth(t, all.comparisons[0].Axes, "faults"), axisWidth(t, res.comparisons[0].Axes, "faults")
	ipc, iTime := axisWidth(t, all.comparisons[0].Axes, "ipc"), axisWidth(t, res.comparisons[0].Axes, "ipc")
	if !(faults > fTime && ipc == iTime) {
		t.Errorf("family all: the faults interval (%v, under time %v) should widen, ipc's (%v, %v) should not", faults, fTime, ipc, iTime)
	}
}

func axisWidth(t *testing.T, axes []ndjson.AxisComparison, name string) float64 {
	t.Helper()
	for _, a := range axes {
		if a.Name == name && a.Result != nil {
			return a.Result.CI[1] - a.Result.CI[0]
		}
	}
	t.Fatalf("no result for axis %s in %+v", name, axes)
	return 0
}

// A plan sizes the intervals the planned run's analysis will compute: at
// the family's per-comparison level.
func TestPlanAtTheFamilyLevel(t *testing.T) {
	for _, c := range []struct {
		k     int
		level float64
	}{{2, 95}, {4, 98.333333333}} {
		plans, err := PlanStream(ndjson.NewReader(bytes.NewReader(roundsRun(t, "p", c.k, 40, noisy)), "pilot"), DefaultOptions, 1)
		if err != nil {
			t.Fatal(err)
		}
		if plans[0].ConfidencePct != c.level {
			t.Errorf("k=%d: planned at %v%%, want %v%%", c.k, plans[0].ConfidencePct, c.level)
		}
	}
}
