package tests

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// checkFixtures writes the streams fb-check's rows of TestExitCodes read:
// analyzed paired runs that pass and regress, a single-case run with
// nothing to compare, and a noise profile of another machine class.
func checkFixtures(t *testing.T, dir string) map[string]string {
	t.Helper()
	host := ndjson.Host{OS: "linux", Arch: "amd64", CPUModel: "Fixture CPU", CPUs: 2}
	other := ndjson.MachineClass{OS: "linux", Arch: "arm64", CPUModel: "Other CPU", CPUs: 8}
	files := map[string][]ndjson.Record{
		"check-pass":      checkRun("c0000000-0000-4000-8000-000000000001", host, 0.5, -1, 2),
		"check-regressed": checkRun("c0000000-0000-4000-8000-000000000002", host, 10, 8, 12),
		"check-single": {
			&ndjson.Run{RunID: "c0000000-0000-4000-8000-000000000003", Design: ndjson.DesignSingle, Host: host,
				Cases: []ndjson.Case{{Name: "only", Command: "true"}}},
			&ndjson.Analysis{RunID: "c0000000-0000-4000-8000-000000000003", Complete: true},
		},
		"check-noise-other": {&ndjson.Noise{Class: other, Invocations: 10, Metrics: []ndjson.NoiseMetric{
			{Metric: "time", Kind: ndjson.NoiseChange, Case: "new", Reference: "old", NoisePct: 1, N: 10}}}},
	}
	paths := map[string]string{}
	for name, recs := range files {
		var buf bytes.Buffer
		w := ndjson.NewWriter(&buf)
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(dir, name+".ndjson")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	return paths
}

// checkRun is an analyzed paired run of old and new with one time change.
func checkRun(id string, host ndjson.Host, change, lo, hi float64) []ndjson.Record {
	return []ndjson.Record{
		&ndjson.Run{RunID: id, Design: ndjson.DesignPaired, Host: host,
			Cases: []ndjson.Case{{Index: 0, Name: "old", Command: "./old"}, {Index: 1, Name: "new", Command: "./new"}}},
		&ndjson.Analysis{RunID: id, Complete: true},
		&ndjson.Comparison{RunID: id, Reference: 0, Contender: 1, ReferenceName: "old", ContenderName: "new",
			Design: ndjson.DesignPaired, ChangePct: change, ChangeCI: [2]float64{lo, hi}},
	}
}
