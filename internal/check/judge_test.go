package check

import (
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// outcomes lists each item as "subject metric outcome".
func outcomes(ck ndjson.Check) []string {
	var out []string
	for _, it := range ck.Items {
		out = append(out, it.Metric+" "+it.Outcome)
	}
	return out
}

func TestJudgeRegressed(t *testing.T) {
	all := load(t, regressedRun()...)
	res := Judge(all, nil, flagged)
	ck := res.Checks[0]
	want := "time fail, rss_peak fail, alloc_bytes fail, live_heap pass, rss_change skip, instructions_sim fail, branches_sim fail, syscalls pass, cache_refs_sim skip"
	if got := strings.Join(outcomes(ck), ", "); got != want {
		t.Errorf("items:\n got %s\nwant %s", got, want)
	}
	if ck.Outcome != ndjson.CheckRegressed || ck.Advisory || res.Outcome != ndjson.CheckRegressed {
		t.Errorf("outcome %q advisory %v overall %q", ck.Outcome, ck.Advisory, res.Outcome)
	}
	if res.Checked != 7 || res.Failed != 5 || res.Skipped != 2 {
		t.Errorf("counts %d checked, %d failed, %d skipped", res.Checked, res.Failed, res.Skipped)
	}
	if got := res.Headline(); got != "regressed: 5 of 7 metrics" {
		t.Errorf("headline %q", got)
	}
	if got := strings.Join(res.Failures(2), "; "); got != "old → new time (+10.0%); old → new rss_peak (+5.0%)" {
		t.Errorf("failures %q", got)
	}
}

func TestJudgePass(t *testing.T) {
	res := Judge(load(t, passingRun()...), nil, flagged)
	if res.Outcome != ndjson.CheckPass || res.Checks[0].Outcome != ndjson.CheckPass {
		t.Fatalf("outcome %q", res.Outcome)
	}
	if got := res.Headline(); got != "no regression: 2 metrics checked" {
		t.Errorf("headline %q", got)
	}
}

// TestJudgeOtherClass: a profile from another machine class still gives
// the table, but the run cannot be judged and says what to do.
func TestJudgeOtherClass(t *testing.T) {
	p := profile(otherClass, change("time", "new", "old", 1))
	res := Judge(load(t, regressedRun()...), p, flagged)
	ck := res.Checks[0]
	if ck.Outcome != ndjson.CheckCannotJudge || !ck.Advisory || res.Outcome != ndjson.CheckCannotJudge {
		t.Fatalf("outcome %q advisory %v overall %q", ck.Outcome, ck.Advisory, res.Outcome)
	}
	want := "noise profile calibrated on linux/arm64, Neoverse-N1, 4 CPUs, this run on linux/amd64, Test CPU 3000, 2 CPUs: recalibrate with fb-noise on this machine class"
	if len(ck.Reasons) != 1 || ck.Reasons[0] != want || res.Reason != want {
		t.Errorf("reasons %q, overall %q", ck.Reasons, res.Reason)
	}
	if count(ck.Items, ndjson.CheckItemFail) != 5 || ck.Noise != "noise.ndjson" {
		t.Errorf("the table is still judged: %v, noise %q", outcomes(ck), ck.Noise)
	}
}

// TestJudgeClassChoice: of several noise records, those of the run's
// class apply.
func TestJudgeClassChoice(t *testing.T) {
	p := &Profile{File: "n", Records: []ndjson.Noise{
		{Class: otherClass, Metrics: []ndjson.NoiseMetric{change("time", "new", "old", 50)}},
		{Class: testClass, Metrics: []ndjson.NoiseMetric{change("time", "new", "old", 1)}},
	}}
	ck := Judge(load(t, regressedRun()...), p, flagged).Checks[0]
	if ck.Advisory || ck.Items[0].Outcome != "fail" {
		t.Errorf("the matching record's 1%% noise applies: %+v", ck.Items[0])
	}
}

func TestJudgeBaselineAllowed(t *testing.T) {
	res := Judge(load(t, baselineRun()...), nil, flagged)
	ck := res.Checks[0]
	if ck.Outcome != ndjson.CheckRegressed || !ck.Advisory || res.Outcome != ndjson.CheckRegressed {
		t.Fatalf("allowed differences are judged normally, labelled advisory: %q %v %q", ck.Outcome, ck.Advisory, res.Outcome)
	}
	want := "compared with baseline 44444444 with allowed fingerprint differences: host.cpu_model (Old CPU → Test CPU 3000)"
	if len(ck.Reasons) != 1 || ck.Reasons[0] != want {
		t.Errorf("reasons %q", ck.Reasons)
	}
	if got := strings.Join(outcomes(ck), ", "); got != "score pass, score fail" || ck.Items[1].Subject != "b" {
		t.Errorf("items %s (%q)", got, ck.Items[1].Subject)
	}
}

func TestJudgeNothingToCompare(t *testing.T) {
	res := Judge(load(t, singleRun()...), nil, flagged)
	if res.Outcome != ndjson.CheckCannotJudge || res.Checks[0].Outcome != ndjson.CheckCannotJudge {
		t.Fatalf("outcome %q", res.Outcome)
	}
	if !strings.Contains(res.Reason, "run 55555555 measured one case and has no baseline: nothing to compare") ||
		!strings.Contains(res.Headline(), "fb-analyze --baseline BASE.ndjson") {
		t.Errorf("reason %q", res.Headline())
	}
	// Beside a run that has comparisons, it does not decide.
	res = Judge(load(t, append(singleRun(), passingRun()...)...), nil, flagged)
	if res.Outcome != ndjson.CheckPass || res.Checks[0].Outcome != ndjson.CheckCannotJudge {
		t.Errorf("with a judged run: overall %q, single %q", res.Outcome, res.Checks[0].Outcome)
	}
}

// TestJudgePrecedence: a regression anywhere outweighs a run that cannot
// be judged; a run that cannot be judged outweighs passes.
func TestJudgePrecedence(t *testing.T) {
	p := &Profile{File: "n", Records: []ndjson.Noise{{Class: otherClass}, {Class: testClass}}}
	other := load(t, passingRun()...)
	other[0].Run.Host.CPUs = 64
	good := load(t, passingRun()...)
	res := Judge(append(good, other...), p, flagged)
	if res.Outcome != ndjson.CheckCannotJudge || res.Checks[0].Outcome != ndjson.CheckPass {
		t.Errorf("pass + cannot judge = %q (%q)", res.Outcome, res.Checks[0].Outcome)
	}
	bad := load(t, regressedRun()...)
	res = Judge(append(bad, other...), p, flagged)
	if res.Outcome != ndjson.CheckRegressed || res.Checks[1].Outcome != ndjson.CheckCannotJudge {
		t.Errorf("regressed + cannot judge = %q (%q)", res.Outcome, res.Checks[1].Outcome)
	}
}

func TestLoadAndCheckAnalyzed(t *testing.T) {
	all := load(t, regressedRun()...)
	if len(all) != 1 || len(all[0].Comparisons) != 1 || all[0].Analysis == nil || !all[0].Exact["cache_refs_sim"] {
		t.Fatalf("loaded %+v", all[0])
	}
	raw := load(t, runRecord("r", ndjson.DesignPaired, "a", "b"))
	var nae *model.NotAnalyzedError
	if err := CheckAnalyzed(raw); !errors.As(err, &nae) || !strings.Contains(err.Error(), "run r was not analyzed: pipe the stream through fb-analyze") {
		t.Errorf("raw: %v", err)
	}
	if err := CheckAnalyzed(nil); !errors.As(err, &nae) {
		t.Errorf("empty: %v", err)
	}
	run := runRecord("d", ndjson.DesignPaired, "a", "b")
	run.Axes = append(run.Axes, ndjson.AxisInfo{Name: "ops", Family: "custom", Comparison: "exact"})
	if got := load(t, run); !got[0].Exact["ops"] {
		t.Error("a custom axis declared exact is a counter")
	}
}

func TestLoadProfile(t *testing.T) {
	good := `{"type":"noise","v":"1.4","command":["fb-pair"],"class":{"os":"linux","arch":"amd64","cpu_model":"X","cpus":2},"metrics":[{"metric":"time","kind":"level","case":"a","noise_pct":2.5,"n":10}]}` + "\n"
	p, err := LoadProfile(ndjson.NewReader(strings.NewReader(good), "noise.ndjson"), flags)
	if err != nil || len(p.Records) != 1 || p.File != "noise.ndjson" || p.Records[0].Metrics[0].NoisePct != 2.5 {
		t.Fatalf("good profile: %+v, %v", p, err)
	}
	bad := map[string]string{
		"":                                  "noise.ndjson:1: no noise record",
		`{"type":"run","v":"1.4"}` + "\n":   "noise.ndjson:1: a run record, not a noise record",
		good + `{"type":"check","v":"1.4"}`: "noise.ndjson:2: a check record",
		`not json` + "\n":                   "noise.ndjson:1: not a JSON object",
		strings.Replace(good, `"noise_pct":2.5`, `"noise_pct":-2.5`, 1): "noise.ndjson:1: bad noise record: metrics[0].noise_pct is -2.5",
		strings.Replace(good, `"kind":"level"`, `"kind":"levels"`, 1):   "noise.ndjson:1: bad noise record: metrics[0].kind is \"levels\"",
		strings.Replace(good, `"kind":"level"`, `"kind":"change"`, 1):   "metrics[0].reference is missing",
	}
	for in, want := range bad {
		_, err := LoadProfile(ndjson.NewReader(strings.NewReader(in), "noise.ndjson"), flags)
		var se *ndjson.SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want a syntax error %q", in, err, want)
		}
	}
	_, err = LoadProfile(ndjson.NewReader(strings.NewReader(`{"type":"noise","v":"9.0"}`+"\n"), "n"), flags)
	var ve *ndjson.VersionError
	if !errors.As(err, &ve) {
		t.Errorf("future schema: %v", err)
	}
}

func TestParseSize(t *testing.T) {
	good := map[string]float64{"0": 0, "65536": 65536, "64KiB": 65536, "64 kib": 65536, "1MiB": 1 << 20, "1.5MiB": 1.5 * (1 << 20),
		"2GiB": 2 << 30, "100kB": 1e5, "3MB": 3e6, "1GB": 1e9, "512B": 512, "512 b": 512}
	for in, want := range good {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("%q: %g, %v; want %g", in, got, err, want)
		}
	}
	for _, in := range []string{"", "64k", "1M", "-1KiB", "KiB", "0x10", "inf", "nan", "1e400", "64 KiBs"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// TestJudgeUnconverged: a profile that did not converge is noted, and the
// run is judged as usual.
func TestJudgeUnconverged(t *testing.T) {
	p := profile(testClass, change("time", "new", "old", 1))
	p.Records[0].Converged = false
	ck := Judge(load(t, regressedRun()...), p, flagged).Checks[0]
	if ck.Outcome != ndjson.CheckRegressed || ck.Advisory || len(ck.Reasons) != 1 ||
		!strings.Contains(ck.Reasons[0], "did not converge in 12 invocations") {
		t.Errorf("outcome %q advisory %v reasons %q", ck.Outcome, ck.Advisory, ck.Reasons)
	}
}

func TestJudgeBaselineAllowedTagIsNotAdvisory(t *testing.T) {
	recs := baselineRun()
	for _, r := range recs {
		if a, ok := r.(*ndjson.Analysis); ok && a.Baseline != nil {
			a.Baseline.Allowed = []ndjson.Mismatch{{Field: "tag.revision", Baseline: "r1", Current: "r2"}}
		}
	}
	ck := Judge(load(t, recs...), nil, flagged).Checks[0]
	if ck.Advisory || len(ck.Reasons) != 1 || !strings.Contains(ck.Reasons[0], "tag.revision (r1 → r2)") {
		t.Errorf("a revision tag differs by design: advisory %v, reasons %q", ck.Advisory, ck.Reasons)
	}
}
