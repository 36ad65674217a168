package analyze

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// analyzeInputs analyses the inputs as fb-analyze does with several
// files: one writer, one suite builder, the suite after them all. It
// returns the suite record, if any, and the comparisons.
func analyzeInputs(t *testing.T, opt Options, inputs ...[]byte) (*ndjson.Suite, []ndjson.Comparison) {
	t.Helper()
	var out bytes.Buffer
	w := ndjson.NewWriter(&out)
	opt.Suite = NewSuiteBuilder()
	for _, in := range inputs {
		must(t, Stream(ndjson.NewReader(bytes.NewReader(in), "in"), w, opt))
	}
	must(t, WriteSuite(w, opt.Suite, opt))
	var suite *ndjson.Suite
	var comparisons []ndjson.Comparison
	r := ndjson.NewReader(bytes.NewReader(out.Bytes()), "out")
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return suite, comparisons
		}
		must(t, err)
		switch l.Type {
		case ndjson.TypeSuite:
			if suite != nil {
				t.Fatal("two suite records")
			}
			suite = &ndjson.Suite{}
			must(t, r.Decode(l, suite))
		case ndjson.TypeComparison:
			var k ndjson.Comparison
			must(t, r.Decode(l, &k))
			comparisons = append(comparisons, k)
		}
	}
}

// constantRatio is a run whose contender c is exactly factor^c faster than
// the reference in every unit, on a drifting base.
func constantRatio(factor float64) func(c, u int) float64 {
	return func(c, u int) float64 {
		return 1000 * (1 + 0.01*float64(u)) / math.Pow(factor, float64(c))
	}
}

// Two A/B runs with exact speedups 1.1 and 1.2: the suite is exactly
// their geometric mean, and its interval collapses onto it.
func TestSuiteOfTwoRunsIsExact(t *testing.T) {
	a := roundsRun(t, "run-a", 2, 30, constantRatio(1.1))
	b := roundsRun(t, "run-b", 2, 30, constantRatio(1.2))
	s, _ := analyzeInputs(t, DefaultOptions, a, b)
	if s == nil {
		t.Fatal("no suite record for two runs")
	}
	want := math.Sqrt(1.1 * 1.2)
	if math.Abs(s.GeoSpeedup-want) > 1e-12 || s.SpeedupCI[0] != s.GeoSpeedup || s.SpeedupCI[1] != s.GeoSpeedup {
		t.Errorf("suite %v [%v], want %v exactly", s.GeoSpeedup, s.SpeedupCI, want)
	}
	if len(s.Members) != 2 || s.Members[0].RunID != "run-a" || s.Members[1].RunID != "run-b" ||
		s.Members[0].Name != "c0 vs c1" || s.Members[0].Pairs != 30 || s.Members[0].Design != ndjson.DesignPaired {
		t.Errorf("members %+v", s.Members)
	}
	if s.Verdict != "contender faster" || s.ConfidencePct != 95 || s.ThresholdPct != 1 || s.Method == "" {
		t.Errorf("verdict %q at %v%%, threshold %v%%, method %q", s.Verdict, s.ConfidencePct, s.ThresholdPct, s.Method)
	}
}

// The members' speedups are their comparisons' geometric means, bit for
// bit, and a noisy suite has an interval around its estimate.
func TestSuiteMembersAreTheComparisonsGeometricMeans(t *testing.T) {
	a := roundsRun(t, "run-a", 2, 40, noisy)
	b := roundsRun(t, "run-b", 4, 40, noisy)
	s, ks := analyzeInputs(t, DefaultOptions, a, b)
	if s == nil || len(s.Members) != 4 || len(ks) != 4 {
		t.Fatalf("suite %+v from %d comparisons", s, len(ks))
	}
	logSum := 0.0
	for i, m := range s.Members {
		if m.Speedup != ks[i].GeoSpeedup || m.Contender != ks[i].Contender || m.RunID != ks[i].RunID {
			t.Errorf("member %d %+v, comparison geo %v", i, m, ks[i].GeoSpeedup)
		}
		logSum += math.Log(m.Speedup)
	}
	if want := math.Exp(logSum / 4); math.Abs(s.GeoSpeedup-want) > 1e-12 {
		t.Errorf("suite %v, want %v", s.GeoSpeedup, want)
	}
	if !(s.SpeedupCI[0] < s.GeoSpeedup && s.GeoSpeedup < s.SpeedupCI[1]) {
		t.Errorf("interval %v does not hold %v", s.SpeedupCI, s.GeoSpeedup)
	}
	if math.Abs(s.ChangePct-100*(1/s.GeoSpeedup-1)) > 1e-9 {
		t.Errorf("change %v%% is not the speedup %v", s.ChangePct, s.GeoSpeedup)
	}
}

func TestSuiteAbsentForOneComparison(t *testing.T) {
	if s, _ := analyzeInputs(t, DefaultOptions, roundsRun(t, "r", 2, 30, noisy)); s != nil {
		t.Errorf("a single two-case run has a suite: %+v", s)
	}
	if s, _ := analyzeInputs(t, DefaultOptions, roundsRun(t, "r", 3, 30, noisy)); s == nil || len(s.Members) != 2 {
		t.Errorf("a three-case run's suite: %+v, want 2 members", s)
	}
	opt := DefaultOptions
	opt.Estimator = "legacy"
	if s, _ := analyzeInputs(t, opt, roundsRun(t, "a", 2, 30, noisy), roundsRun(t, "b", 2, 30, noisy)); s != nil {
		t.Error("the legacy estimator, which writes schema 1.2, wrote a suite")
	}
}

// Reference-workload cases are no members; a run analysed again drops the
// suite record it carries, and the new one comes last.
func TestSuiteMembersAndReanalysis(t *testing.T) {
	in := roundsRun(t, "r", 4, 30, noisy)
	in = bytes.Replace(in, []byte(`"name":"c3"`), []byte(`"name":"c3","role":"reference-workload"`), 1)
	s, _ := analyzeInputs(t, DefaultOptions, in)
	if s == nil || len(s.Members) != 2 || s.Members[1].Contender != 2 {
		t.Fatalf("suite %+v: want members 1 and 2", s)
	}
	var once bytes.Buffer
	opt := DefaultOptions
	opt.Suite = NewSuiteBuilder()
	w := ndjson.NewWriter(&once)
	must(t, Stream(ndjson.NewReader(bytes.NewReader(in), "in"), w, opt))
	must(t, WriteSuite(w, opt.Suite, opt))
	again, _ := analyzeInputs(t, DefaultOptions, once.Bytes())
	if again == nil || again.GeoSpeedup != s.GeoSpeedup {
		t.Errorf("re-analysis gave suite %+v, want %+v", again, s)
	}
	lines := strings.Split(strings.TrimSpace(once.String()), "\n")
	if !strings.Contains(lines[len(lines)-1], `"type":"suite"`) {
		t.Errorf("the suite is not the last record: %s", lines[len(lines)-1])
	}
}

// Sequential blocks are independent samples: each side is resampled on
// its own, and the member says so by its design.
func TestSuiteSequentialMember(t *testing.T) {
	seq := bytes.ReplaceAll(roundsRun(t, "s", 2, 30, constantRatio(1.1)), []byte(`"design":"paired"`), []byte(`"design":"sequential"`))
	s, _ := analyzeInputs(t, DefaultOptions, seq, roundsRun(t, "p", 2, 30, constantRatio(1.2)))
	if s == nil || s.Members[0].Design != ndjson.DesignSequential {
		t.Fatalf("suite %+v", s)
	}
	if want := math.Sqrt(1.1 * 1.2); math.Abs(s.GeoSpeedup-want) > 1e-9 {
		t.Errorf("suite %v, want %v", s.GeoSpeedup, want)
	}
}
