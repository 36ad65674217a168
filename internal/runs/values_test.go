package runs

import (
	"strings"
	"testing"
)

// TestAnalysisValuesChecked: analysis records whose values no analysis
// gives are refused at their line, not printed as given (flybench issue
// 21, item 7).
func TestAnalysisValuesChecked(t *testing.T) {
	const cmp = `{"type":"comparison","v":"1.7","run_id":"r1","reference":0,"contender":1,"design":"paired","pairs":20,` +
		`"geo_speedup":1.02,"speedup_ci":[1.01,1.03],"change_pct":-1.96,"change_ci_pct":[-2.9,-1],"confidence_pct":95,"threshold_pct":1,"verdict":"inconclusive"`
	const sum = `{"type":"summary","v":"1.7","run_id":"r1","case":1,"n":20,"min_ns":5,"median_ns":6,"mean_ns":6,"p95_ns":7,"p99_ns":7,"max_ns":8,"mean_ci_ns":[5.5,6.5]`
	tests := []struct{ line, want string }{
		{cmp + `}`, ""},
		{sum + `}`, ""},
		{strings.Replace(cmp, `[-2.9,-1]`, `[5,-5,7]`, 1) + `}`, "bad comparison record: change_ci_pct is [5, -5]: its low end is above its high end"},
		{strings.Replace(cmp, `"change_pct":-1.96`, `"change_pct":1e300`, 1) + `}`, "bad comparison record: change_pct 1e+300% does not follow from geo_speedup 1.02, which gives -1.961%"},
		{strings.Replace(cmp, `"pairs":20`, `"pairs":-5`, 1) + `}`, "bad comparison record: pairs is -5: a count is never negative"},
		{strings.Replace(cmp, `"inconclusive"`, `"faster"`, 1) + `}`, `bad comparison record: verdict "faster" is not one of`},
		{strings.Replace(cmp, `"confidence_pct":95`, `"confidence_pct":950`, 1) + `}`, "bad comparison record: confidence_pct is 950: a confidence level"},
		{cmp + `,"axes":[{"name":"wall","result":{"n":5,"ci":[3,1]}}]}`, "bad comparison record: axes[0].result.ci is [3, 1]"},
		{strings.Replace(sum, `"n":20`, `"n":-5`, 1) + `}`, "bad summary record: n is -5: a count is never negative"},
		{strings.Replace(sum, `"median_ns":6`, `"median_ns":60`, 1) + `}`, "bad summary record: median_ns is 60, outside min_ns 5 .. max_ns 8"},
		{`{"type":"analysis","v":"1.7","run_id":"r1","resamples":-1,"confidence_pct":95}`, "bad analysis record: resamples is -1"},
	}
	for _, tc := range tests {
		_, err := read(run1, end1, tc.line)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.line, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), "in:3: "+tc.want)):
			t.Errorf("%s:\n got %v\nwant in:3: %s", tc.line, err, tc.want)
		}
	}
}
