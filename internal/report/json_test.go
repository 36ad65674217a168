package report

import (
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
	doc := decodeJSON(t, render(t, []*model.Run{runs[0], &cut}, Options{Format: "json", Samples: true}))
	list := doc["runs"].([]any)
	first := list[0].(map[string]any)
	samples := first["samples"].([]any)
	if len(samples) != len(runs[0].Samples) {
		t.Fatalf("%d samples, want %d", len(samples), len(runs[0].Samples))
	}
	if s := samples[3].(map[string]any); s["op_ns"] != runs[0].Samples[3].OpNS {
		t.Errorf("sample 3 = %v, want op_ns %v", s, runs[0].Samples[3].OpNS)
	}
	second := list[1].(map[string]any)
	if second["end"] != nil {
		t.Errorf("missing end should be null, got %v", second["end"])
	}
	if s, ok := second["samples"].([]any); !ok || len(s) != 0 {
		t.Errorf("run without samples should carry [], got %v", second["samples"])
	}
}
