package noise

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// host is the machine every synthetic invocation ran on.
var host = ndjson.Host{OS: "linux", Arch: "amd64", CPUModel: "Test CPU", CPUs: 2, Hostname: "h"}

// inv describes one synthetic analysed invocation: the reference "old"
// and contender "new" with their mean time, the change of new against
// old, and optional axes (level means of "new", relative changes).
type inv struct {
	oldMean, newMean, change float64
	rss                      *float64 // new's max_rss mean and change, when present
	host                     ndjson.Host
	tags                     map[string]string
}

func ptr(v float64) *float64 { return &v }

// stream writes inv as an analysed stream: run, end, analysis, two
// summaries and a comparison.
func (v inv) stream(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	h := v.host
	if h.OS == "" {
		h = host
	}
	write(t, w, &ndjson.Run{RunID: "r", Tool: "fb-pair", Host: h, Tags: v.tags,
		Cases: []ndjson.Case{{Index: 0, Name: "old"}, {Index: 1, Name: "new"}}})
	write(t, w, &ndjson.End{RunID: "r", Reason: ndjson.EndCompleted})
	write(t, w, &ndjson.Analysis{RunID: "r", Complete: true})
	write(t, w, v.summary(0, "old", v.oldMean, nil))
	write(t, w, v.summary(1, "new", v.newMean, v.rss))
	cmp := &ndjson.Comparison{RunID: "r", Reference: 0, Contender: 1, ReferenceName: "old", ContenderName: "new", ChangePct: v.change,
		Axes: []ndjson.AxisComparison{{Name: "wall", Available: true, Result: &ndjson.AxisResult{Method: ndjson.AxisMethodRelative, Change: v.change}}}}
	if v.rss != nil {
		cmp.Axes = append(cmp.Axes, ndjson.AxisComparison{Name: "max_rss", Available: true, Result: &ndjson.AxisResult{Method: ndjson.AxisMethodRelative, Change: *v.rss / 10}})
	}
	write(t, w, cmp)
	return buf.Bytes()
}

func (v inv) summary(c int, name string, mean float64, rss *float64) *ndjson.Summary {
	s := &ndjson.Summary{RunID: "r", Case: c, Name: name, N: 30, Mean: mean,
		Axes: []ndjson.AxisSummary{{Name: "wall", N: 30, Stats: &ndjson.AxisStats{Mean: mean * 7}}}}
	if rss != nil {
		s.Axes = append(s.Axes, ndjson.AxisSummary{Name: "max_rss", N: 30, Stats: &ndjson.AxisStats{Mean: *rss}})
	}
	return s
}

func write(t *testing.T, w *ndjson.Writer, r ndjson.Record) {
	t.Helper()
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
}

// streams is a Runner over fixed streams; it fails the test if asked for
// an invocation it does not have.
func streams(t *testing.T, s ...[]byte) Runner {
	return func(_ context.Context, i int) (io.Reader, error) {
		if i < 1 || i > len(s) {
			t.Fatalf("invocation %d asked for; only %d exist", i, len(s))
		}
		return bytes.NewReader(s[i-1]), nil
	}
}

// invs makes a stream per invocation.
func invs(t *testing.T, v ...inv) Runner {
	s := make([][]byte, len(v))
	for i := range v {
		s[i] = v[i].stream(t)
	}
	return streams(t, s...)
}

// collect records every progress report.
func collect(ps *[]Progress) func(Progress) {
	return func(p Progress) { *ps = append(*ps, p) }
}

func config(min, max int, tol float64) Config {
	c := DefaultConfig
	c.MinRuns, c.MaxRuns, c.TolerancePct = min, max, tol
	return c
}

var (
	levelTime  = Key{Kind: ndjson.NoiseLevel, Metric: "time", Case: "new"}
	levelOld   = Key{Kind: ndjson.NoiseLevel, Metric: "time", Case: "old"}
	levelRSS   = Key{Kind: ndjson.NoiseLevel, Metric: "max_rss", Case: "new"}
	changeTime = Key{Kind: ndjson.NoiseChange, Metric: "time", Case: "new", Reference: "old"}
	changeRSS  = Key{Kind: ndjson.NoiseChange, Metric: "max_rss", Case: "new", Reference: "old"}
)

// metric finds k's metric in a result.
func metric(t *testing.T, r *Result, k Key) ndjson.NoiseMetric {
	t.Helper()
	for _, m := range r.Metrics {
		if m.Kind == k.Kind && m.Metric == k.Metric && m.Case == k.Case && m.Reference == k.Reference {
			return m
		}
	}
	t.Fatalf("no metric %v in %+v", k, r.Metrics)
	return ndjson.NoiseMetric{}
}
