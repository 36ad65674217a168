package analyze

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// aaStream is a series of n A/A runs of one command: run i's contender
// takes con(i) ns/op against the reference's 1000.
func aaStream(t *testing.T, n, planned int, con func(i int) float64) []byte {
	t.Helper()
	var out bytes.Buffer
	for i := 0; i < n; i++ {
		in := pairedStream(t, 30, func(int) float64 { return 1000 }, func(u int) float64 { return con(i) * (1 + 0.001*float64(u%3-1)) }, true)
		id := "r-" + string(rune('a'+i))
		aa := `"aa":{"series":"s-1","index":` + string(rune('0'+i)) + `,"runs":` + string(rune('0'+planned)) + `}`
		text := strings.ReplaceAll(string(in), `"run_id":"r-1"`, `"run_id":"`+id+`"`)
		text = strings.Replace(text, `"metrics":null}`, `"metrics":null,`+aa+`}`, 1)
		if !strings.Contains(text, `"aa":{`) {
			t.Fatalf("no aa in %s", text[:400])
		}
		out.WriteString(text)
	}
	return out.Bytes()
}

func TestAASeriesSummary(t *testing.T) {
	// runs 0 and 2 identical; run 1's contender 5% slower: one false alarm
	in := aaStream(t, 3, 4, func(i int) float64 { return []float64{1000, 1050, 1000}[i] })
	b := NewAABuilder()
	opt := DefaultOptions
	opt.AA, opt.Suite = b, NewSuiteBuilder()
	var out bytes.Buffer
	must(t, Stream(ndjson.NewReader(bytes.NewReader(in), "in"), ndjson.NewWriter(&out), opt))
	recs := b.Records(opt)
	if len(recs) != 1 {
		t.Fatalf("%d aa records", len(recs))
	}
	a := recs[0]
	if a.Series != "s-1" || a.Runs != 3 || a.Planned != 4 || a.False != 1 || a.Verdicts[string(ndjson.VerdictReferenceFaster)] != 1 || len(a.RunIDs) != 3 {
		t.Fatalf("%+v", a)
	}
	if math.Abs(a.MaxAbsChangePct-5) > 0.2 || a.ExcludeZero < 1 {
		t.Fatalf("changes: %+v", a)
	}
	// Clopper-Pearson, 1 of 3 at 95%: [0.0084, 0.9057]
	if math.Abs(a.FalseRateCI[0]-0.00840) > 1e-4 || math.Abs(a.FalseRateCI[1]-0.90570) > 1e-4 {
		t.Fatalf("false-rate interval %v", a.FalseRateCI)
	}
	if rec, _ := opt.Suite.Record(opt); rec != nil {
		t.Fatalf("an A/A series is not a suite: %+v", rec)
	}
	// run 1's 5% stands far outside its narrow interval: the runs scatter
	// more than their intervals allow
	if a.Spread == nil || a.SpreadCI == nil || *a.Spread < 3 || a.SpreadCI[0] > *a.Spread || a.SpreadCI[1] < *a.Spread {
		t.Fatalf("spread %v %v", a.Spread, a.SpreadCI)
	}
}

func TestClopperPearsonZero(t *testing.T) {
	// 0 of 20: the upper bound is 1 - 0.025^(1/20)
	ci := clopperPearson(0, 20, 95)
	if ci[0] != 0 || math.Abs(ci[1]-(1-math.Pow(0.025, 1.0/20))) > 1e-9 {
		t.Fatalf("%v", ci)
	}
}

func TestScatter(t *testing.T) {
	// at 95%, se = width/2/1.959964: ratios 1, -1, 2, -2; the zero-width
	// run is left out; sum of squares 10 over 4 runs
	z := 1.959963984540054
	s, ci, ok := Scatter([]float64{1, -1, 2, -2, 7}, []float64{2 * z, 2 * z, 2 * z, 2 * z, 0}, 95)
	if !ok || math.Abs(s-math.Sqrt(2.5)) > 1e-9 {
		t.Fatalf("spread %v %v", s, ok)
	}
	// chi-square with 4 degrees of freedom: 0.975 quantile 11.1433, 0.025 quantile 0.484419
	want := [2]float64{math.Sqrt(2.5) * math.Sqrt(4/11.143287), math.Sqrt(2.5) * math.Sqrt(4/0.4844186)}
	if math.Abs(ci[0]-want[0]) > 1e-4 || math.Abs(ci[1]-want[1]) > 1e-4 {
		t.Fatalf("interval %v, want %v", ci, want)
	}
	// the scale of the changes does not matter, only their ratio to the widths
	s2, _, _ := Scatter([]float64{10, -10, 20, -20}, []float64{20 * z, 20 * z, 20 * z, 20 * z}, 95)
	if math.Abs(s2-s) > 1e-9 {
		t.Fatalf("spread %v against %v", s2, s)
	}
	if _, _, ok := Scatter([]float64{1, 2}, []float64{1, 0}, 95); ok {
		t.Fatal("one run of positive width gave a spread")
	}
}
