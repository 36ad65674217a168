package report

import (
	"testing"
)

// axisNamed is the element of a decoded axis array called name.
func axisNamed(t *testing.T, list any, name string) map[string]any {
	t.Helper()
	items, ok := list.([]any)
	if !ok {
		t.Fatalf("axes = %v, want an array", list)
	}
	for _, it := range items {
		if m := it.(map[string]any); m["name"] == name {
			return m
		}
	}
	t.Fatalf("no axis %q in %v", name, list)
	return nil
}

func TestJSONCarriesAxes(t *testing.T) {
	doc := decodeJSON(t, render(t, axesFixtureRuns(t), Options{Format: "json"}))
	run := doc["runs"].([]any)[0].(map[string]any)
	info := run["run"].(map[string]any)["axes"]
	if n := len(info.([]any)); n != 8 {
		t.Errorf("run.axes has %d axes, want 8", n)
	}
	if c := axisNamed(t, info, "cycles"); c["status"] != "unsupported_event" || c["reason"] != noPMU || c["scope"] != "native_task_tree" {
		t.Errorf("run.axes cycles = %v", c)
	}
	sum := run["summaries"].([]any)[1].(map[string]any)
	if c := axisNamed(t, sum["axes"], "cycles"); c["n"] != 0.0 || c["stats"] != nil {
		t.Errorf("an unavailable summary axis must carry no statistics: %v", c)
	}
	if c := axisNamed(t, sum["axes"], "read_bytes"); c["status"] != "partially_collected" || c["missing"] != 3.0 || c["stats"] == nil {
		t.Errorf("partially collected read_bytes = %v", c)
	}
	tele := sum["telemetry"].(map[string]any)
	if s := tele["cpu_series"].([]any); len(s) != 40 {
		t.Errorf("telemetry carries %d CPU points, want 40", len(s))
	}
	cmp := run["comparisons"].([]any)[0].(map[string]any)
	if c := axisNamed(t, cmp["axes"], "cycles"); c["available"] != false || c["result"] != nil {
		t.Errorf("an unavailable axis comparison must carry no result: %v", c)
	}
	if w := axisNamed(t, cmp["axes"], "wall"); w["result"].(map[string]any)["verdict"] != "contender better" {
		t.Errorf("wall comparison = %v", w)
	}
}

func TestJSONSampleAxesHaveNoStandInValue(t *testing.T) {
	doc := decodeJSON(t, render(t, axesFixtureRuns(t)[:1], Options{Format: "json", Samples: true}))
	samples := doc["runs"].([]any)[0].(map[string]any)["samples"].([]any)
	first := samples[0].(map[string]any)
	ax := first["axes"].(map[string]any)
	if c := ax["cycles"].(map[string]any); c["s"] != "unsupported_event" || c["v"] != nil {
		t.Errorf("sample cycles = %v, want a status and no value", c)
	}
	if c := ax["cpu"].(map[string]any); c["s"] != "collected" || c["v"] == nil {
		t.Errorf("sample cpu = %v, want a value", c)
	}
	if first["tele"] == nil {
		t.Errorf("sample carries no telemetry")
	}
}
