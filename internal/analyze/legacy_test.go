package analyze

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// TestLegacyEstimatorReproducesArchivedAnalyses re-analyses streams that
// fb-analyze of schema 1.2 (commit 36ca607) analysed, under
// --estimator legacy, and requires its output byte for byte: an archived
// analysis stays reproducible after the default method changed.
// testdata/legacy holds real fb-pair streams (paired, 3-case rounds with
// resource axes, sequential, worker mode) and that tool's output for the
// default settings (NAME.analyzed) and for --seed 7 --confidence 90
// --threshold 2 (NAME.s7.analyzed).
func TestLegacyEstimatorReproducesArchivedAnalyses(t *testing.T) {
	streams, _ := filepath.Glob("testdata/legacy/*.ndjson")
	if len(streams) == 0 {
		t.Fatal("no legacy fixtures")
	}
	for _, path := range streams {
		base := strings.TrimSuffix(path, ".ndjson")
		for suffix, opt := range map[string]Options{
			".analyzed":    {Seed: 1, Resamples: 2000, Confidence: 95, ThresholdPct: 1},
			".s7.analyzed": {Seed: 7, Resamples: 2000, Confidence: 90, ThresholdPct: 2},
		} {
			opt.Estimator, opt.Analyzer = stats.EstimatorLegacy, "fb-analyze 36ca607"
			want, err := os.ReadFile(base + suffix)
			if err != nil {
				t.Fatal(err)
			}
			got := analyzeFile(t, path, opt)
			if !bytes.Equal(got, want) {
				t.Errorf("%s%s: legacy analysis differs from the archived one:\n%s", base, suffix, firstDifference(got, want))
			}
		}
	}
}

func analyzeFile(t *testing.T, path string, opt Options) []byte {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	if err := Stream(ndjson.NewReader(in, path), ndjson.NewWriter(&out), opt); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// firstDifference shows the first line where got and want differ.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d\n got: %s\nwant: %s", i+1, a, b)
		}
	}
	return "(no line differs)"
}
