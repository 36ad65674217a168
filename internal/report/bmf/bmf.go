// Package bmf is fb-report --format bmf: every case of every analysed run
// in the Bencher Metric Format, one JSON object whose keys are benchmarks
// and whose values map measures to a value with its lower and upper
// bounds, so a Bencher user uploads flybench's results unchanged (bencher
// run --adapter json). A measure is written only where it was measured:
// an axis without a value is left out, never written as zero.
package bmf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Metric is one measure of one benchmark: its value and the interval
// around it.
type Metric struct {
	Value float64  `json:"value"`
	Lower *float64 `json:"lower_value,omitempty"`
	Upper *float64 `json:"upper_value,omitempty"`
}

// Bencher's built-in measures: latency in nanoseconds and throughput in
// operations per second.
const (
	Latency    = "latency"
	Throughput = "throughput"
)

// errNoRuns is a stream without analysed runs.
var errNoRuns = &model.NotAnalyzedError{Msg: "the stream holds no run records, nothing to write as Bencher Metric Format " +
	"(recordings have no place in it)"}

// Write writes every case with a summary: latency (the mean time per
// operation, bounds the interval of the mean), throughput (work units
// per second, where the case declared its work units), and each memory
// or rate axis the case measured (its mean and the interval of the
// mean), named by the axis in kebab case (alloc-bytes, rss-peak,
// mb-per-s). A case name that two runs share is followed by the run id.
func Write(w *bytes.Buffer, runs []*model.Run) error {
	if len(runs) == 0 {
		return errNoRuns
	}
	doc := map[string]map[string]Metric{}
	shared := sharedNames(runs)
	for _, r := range runs {
		for i := range r.Run.Cases {
			s := r.Summary(i)
			if s == nil || s.N == 0 {
				continue
			}
			name := r.CaseName(i)
			if shared[name] {
				name = fmt.Sprintf("%s (run %s)", name, r.Run.RunID)
			}
			doc[name] = measures(s)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// sharedNames are the case names more than one run has.
func sharedNames(runs []*model.Run) map[string]bool {
	first, shared := map[string]int{}, map[string]bool{}
	for k, r := range runs {
		for i := range r.Run.Cases {
			n := r.CaseName(i)
			if j, ok := first[n]; ok && j != k {
				shared[n] = true
			} else {
				first[n] = k
			}
		}
	}
	return shared
}

// measures are one case's measures.
func measures(s *ndjson.Summary) map[string]Metric {
	out := map[string]Metric{Latency: bounded(s.Mean, s.MeanCI)}
	if t := s.Throughput; t != nil {
		out[Throughput] = bounded(t.UnitsPerSec, t.CI)
	}
	for _, a := range s.Axes {
		if a.Stats == nil || !memoryOrRate(a) {
			continue
		}
		out[slug(a.Name)] = bounded(a.Stats.Mean, a.Stats.MeanCI)
	}
	return out
}

// memoryOrRate says whether an axis is memory (bytes, allocations) or a
// rate (per second): those Bencher users track besides latency.
func memoryOrRate(a ndjson.AxisSummary) bool {
	u := a.Unit
	return strings.HasPrefix(u, "bytes") || strings.HasPrefix(u, "B/") || u == "B" || strings.HasPrefix(u, "allocs") ||
		strings.HasSuffix(u, "/s")
}

// bounded is a value with its interval, the bounds left out when the
// interval is not finite or does not hold the value.
func bounded(v float64, ci [2]float64) Metric {
	m := Metric{Value: v}
	if lo, hi := ci[0], ci[1]; finite(lo) && finite(hi) && lo <= v && v <= hi && lo < hi {
		m.Lower, m.Upper = &lo, &hi
	}
	return m
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// slug is an axis name as a measure slug: lower case, "_" and "." as "-",
// at most 64 characters.
func slug(name string) string {
	s := strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(name))
	return s[:min(len(s), 64)]
}
