package report

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/report/figure"
	"github.com/flybench/flybench/internal/report/html"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// analysedRun collects units of cases around the given medians and
// analyses them as fb-analyze would.
func analysedRun(t *testing.T, id string, design ndjson.Design, units int, medians []float64) *model.Run {
	t.Helper()
	names := make([]string, len(medians))
	iter := make([]int64, len(medians))
	for i := range medians {
		names[i], iter[i] = fmt.Sprintf("case-%02d", i), 4
	}
	recs := []ndjson.Record{testRun(id, "fb-pair", design, "equal-time", names...)}
	for i := range medians {
		recs = append(recs, calibration(i, names[i], iter[i], medians[i]))
	}
	recs = append(recs, testSamples(7, units, iter, medians)...)
	samples := make([]int, len(medians))
	for i := range samples {
		samples[i] = units
	}
	recs = append(recs, &ndjson.End{RunID: id, Reason: ndjson.EndCompleted, Units: units, Samples: samples})
	var out bytes.Buffer
	opt := flaggedOptions
	opt.Resamples = 200
	check(t, analyze.Stream(ndjson.NewReader(bytes.NewReader(streamOf(t, recs)), "in"), ndjson.NewWriter(&out), opt))
	return loadFixture(t, out.Bytes(), "analysed")[0]
}

// htmlBytes is the page of one run without figures.
func htmlBytes(t *testing.T, r *model.Run) int {
	t.Helper()
	var buf bytes.Buffer
	check(t, html.WritePage(&buf, &model.Stream{Runs: []*model.Run{r}}, [][]figure.Figure{nil}, nil))
	return buf.Len()
}

// TestHTMLSizeBudget: apart from its figures the page holds the cards and
// no data, so it stays small for 16 cases and does not grow with the
// number of pairs.
func TestHTMLSizeBudget(t *testing.T) {
	medians := make([]float64, 16)
	for i := range medians {
		medians[i] = 1e6 * (1 + 0.01*float64(i))
	}
	many := analysedRun(t, "size-16", ndjson.DesignRounds, 20, medians)
	if got := htmlBytes(t, many); got > 96<<10 {
		t.Errorf("16 cases, every card: page %d bytes, budget 96 KiB", got)
	}
	small := htmlBytes(t, analysedRun(t, "size-50", ndjson.DesignPaired, 50, []float64{1e6, 0.98e6}))
	large := htmlBytes(t, analysedRun(t, "size-1k", ndjson.DesignPaired, 1000, []float64{1e6, 0.98e6}))
	if large > 16<<10 || large-small > 256 {
		t.Errorf("1,000 pairs: page %d bytes against %d for 50 pairs: the page grows with the data", large, small)
	}
	t.Logf("16 cases %d bytes; 50 pairs %d bytes, 1,000 pairs %d bytes", htmlBytes(t, many), small, large)
}
