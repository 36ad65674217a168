package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

func decodeJSON(t *testing.T, out []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("output is not one JSON document: %v", err)
	}
	return doc
}

func TestJSONStructure(t *testing.T) {
	runs := fixtureRuns(t)
	doc := decodeJSON(t, render(t, runs, Options{Format: "json"}))
	if doc["schema"] != ndjson.Version {
		t.Errorf("schema = %v, want %s", doc["schema"], ndjson.Version)
	}
	list, _ := doc["runs"].([]any)
	if len(list) != len(runs) {
		t.Fatalf("%d runs in the document, want %d", len(list), len(runs))
	}
	for i, item := range list {
		run := item.(map[string]any)
		for _, key := range []string{"run", "calibrations", "end", "analysis", "summaries", "comparisons"} {
			if _, ok := run[key]; !ok {
				t.Errorf("run %d lacks %q", i, key)
			}
		}
		if _, ok := run["samples"]; ok {
			t.Errorf("run %d carries samples without Samples", i)
		}
		if id := run["run"].(map[string]any)["run_id"]; id != runs[i].Run.RunID {
			t.Errorf("run %d id = %v", i, id)
		}
	}
	if comps := list[1].(map[string]any)["comparisons"].([]any); len(comps) != 4 {
		t.Errorf("rounds run has %d comparisons, want 4", len(comps))
	}
	if list[3].(map[string]any)["comparisons"] == nil {
		t.Errorf("single run's comparisons should be [], not null")
	}
}

func TestJSONSamples(t *testing.T) {
	runs := fixtureRuns(t)
	cut := *runs[3]
	cut.End, cut.Samples = nil, nil
	out := render(t, []*model.Run{runs[0], &cut}, Options{Format: "json", Samples: true})
	var compact, indented bytes.Buffer
	if err := json.Compact(&compact, out); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	if indented.WriteByte('\n'); !bytes.Equal(out, indented.Bytes()) {
		t.Errorf("the samples are not indented as the rest of the document:\n%s", out)
	}
	doc := decodeJSON(t, out)
	list := doc["runs"].([]any)
	first := list[0].(map[string]any)
	samples := first["samples"].([]any)
	if len(samples) != runs[0].Samples.Len() {
		t.Fatalf("%d samples, want %d", len(samples), runs[0].Samples.Len())
	}
	want, err := runs[0].Samples.Sample(3)
	if err != nil {
		t.Fatal(err)
	}
	if s := samples[3].(map[string]any); s["op_ns"] != want.OpNS || s["type"] != ndjson.TypeSample {
		t.Errorf("sample 3 = %v, want op_ns %v", s, want.OpNS)
	}
	second := list[1].(map[string]any)
	if second["end"] != nil {
		t.Errorf("missing end should be null, got %v", second["end"])
	}
	if s, ok := second["samples"].([]any); !ok || len(s) != 0 {
		t.Errorf("run without samples should carry [], got %v", second["samples"])
	}
}
