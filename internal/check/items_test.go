package check

import (
	"math"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestTimeItem(t *testing.T) {
	cases := []struct {
		name           string
		change, lo, hi float64
		noise          *Profile
		outcome        string
		window         float64
		why            string
	}{
		{"10% slower, narrow interval", 10, 8, 12, nil, "fail", 2, "slower by 10.0%: at least 5% and outside the ±2.0% window (interval ±2.0%; no noise profile)"},
		{"A/A", 0.4, -1.5, 2.3, nil, "pass", 1.9, "below the 5% threshold"},
		{"faster", -20, -22, -18, nil, "pass", 2, "faster by 20.0%: below"},
		{"exactly the threshold, outside", 5, 4, 6, nil, "fail", 1, "slower by 5.0%"},
		{"large but wide interval", 6, -1, 13, nil, "pass", 7, "inside the ±7.0% window"},
		{"noise widens the window past the change", 6, 5, 7, profile(testClass, change("time", "new", "old", 8)),
			"pass", math.Hypot(1, 8), "inside the ±8.1% window (interval ±1.0%, noise ±8.0%)"},
		{"noise too small to forgive", 6, 5, 7, profile(testClass, change("time", "new", "old", 3)),
			"fail", math.Hypot(1, 3), "outside the ±3.2% window"},
		{"a change noise of other cases does not apply", 6, 5, 7, profile(testClass, change("time", "new", "other", 30), level("time", "new", 30)),
			"fail", 1, "the profile has no noise for this comparison"},
		{"window equal to the change passes", 6, 0, 12, nil, "pass", 6, "inside"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmp := paired("x", c.change, c.lo, c.hi)
			it := timeItem(cmp, c.noise.forRun(testHost), DefaultOptions)
			if it.Outcome != c.outcome || math.Abs(it.Window-c.window) > 1e-9 || !strings.Contains(it.Why, c.why) {
				t.Errorf("got %s, window %g, why %q; want %s, %g, %q", it.Outcome, it.Window, it.Why, c.outcome, c.window, c.why)
			}
			if it.Kind != "time" || it.Metric != "time" || it.Subject != "old → new" || it.Design != "paired" || it.Unit != "%" || it.Threshold != 5 {
				t.Errorf("labels: %+v", it)
			}
		})
	}
}

// TestTimeItemBaseline checks a baseline comparison's labels and that its
// noise is the profile's level noise of its case, applied once.
func TestTimeItemBaseline(t *testing.T) {
	cmp := baselineCmp("x", 1, "b", 7, 5.5, 8.5)
	p := profile(testClass, change("time", "b", "a", 1), level("time", "b", 4))
	it := timeItem(cmp, p.forRun(testHost), DefaultOptions)
	if it.Subject != "b" || it.Metric != "score" || it.Design != "independent" {
		t.Errorf("labels: %+v", it)
	}
	if want := math.Hypot(1.5, 4); math.Abs(it.Window-want) > 1e-9 || it.Outcome != "fail" {
		t.Errorf("window %g outcome %s, want %g fail", it.Window, it.Outcome, want)
	}
	p = profile(testClass, level("time", "b", 10))
	if it := timeItem(cmp, p.forRun(testHost), DefaultOptions); it.Outcome != "pass" {
		t.Errorf("10%% noise: %s %q, want pass", it.Outcome, it.Why)
	}
}

func TestTimeItemThreshold(t *testing.T) {
	opt := DefaultOptions
	opt.MaxSlowdownPct = 15
	if it := timeItem(paired("x", 10, 8, 12), noiseSet{}, opt); it.Outcome != "pass" || it.Threshold != 15 {
		t.Errorf("--max-slowdown 15: %+v", it)
	}
}

func TestMemoryItem(t *testing.T) {
	floorOp := DefaultOptions
	floorOp.MemoryFloorOp = 256
	cases := []struct {
		name    string
		axis    ndjson.AxisComparison
		noise   *Profile
		opt     Options
		outcome string
		value   float64
		why     string
	}{
		{"peak grew 5% of 100 MiB", relAxis("rss_peak", "bytes", "diagnostic", 100<<20, 5, 4, 6), nil, DefaultOptions,
			"fail", 5, "grew by 5.0% (+5 MiB): at least 3% and 64 KiB, outside the 1.0% window (the interval reaches +4.0%)"},
		{"below 3%", relAxis("rss_peak", "bytes", "diagnostic", 100<<20, 2, 1.5, 2.5), nil, DefaultOptions,
			"pass", 2, "below the 3% threshold"},
		{"under the floor", relAxis("rss_peak", "bytes", "diagnostic", 1<<20, 5, 4, 6), nil, DefaultOptions,
			"pass", 5, "grew by 5.0% (+51.2 KiB): under the 64 KiB floor"},
		{"interval reaches no growth", relAxis("rss_peak", "bytes", "diagnostic", 100<<20, 5, -1, 11), nil, DefaultOptions,
			"pass", 5, "inside the 6.0% window (the interval reaches -1.0%)"},
		{"inside the calibrated noise", relAxis("rss_peak", "bytes", "diagnostic", 100<<20, 5, 4, 6),
			profile(testClass, change("rss_peak", "new", "old", 7)), DefaultOptions, "pass", 5, "inside the 7.0% window (the interval reaches +4.0%, noise 7.0%)"},
		{"above the calibrated noise", relAxis("rss_peak", "bytes", "diagnostic", 100<<20, 5, 4, 6),
			profile(testClass, change("rss_peak", "new", "old", 2)), DefaultOptions, "fail", 5, "outside the 2.0% window"},
		{"per-operation allocation, absolute", absAxis("alloc_bytes", "bytes/op", 1000, 100, 80, 120), nil, DefaultOptions,
			"fail", 10, "grew by 10.0% (+100 B/op): at least 3%, outside the 2.0% window"},
		{"per-operation floor", absAxis("alloc_bytes", "B/op", 1000, 100, 80, 120), nil, floorOp,
			"pass", 10, "under the 256 B/op floor"},
		{"unavailable", missingAxis("rss_change", "bytes/op", "unsupported_mode", "exec mode: no carry-over"), nil, DefaultOptions,
			"skip", 0, "unsupported mode: exec mode: no carry-over"},
		{"reason names the status", missingAxis("rss_peak", "bytes", "unattributable", "spin: unattributable: below own peak"), nil, DefaultOptions,
			"skip", 0, "spin: unattributable: below own peak"},
		{"zero reference without a floor", absAxis("rss_change", "bytes/op", 0, 4096, 1000, 8000), nil, DefaultOptions,
			"skip", 0, "changed by +4 KiB/op from a reference median of 0 B/op: no relative growth to compare with the threshold, and no floor"},
		{"zero reference, no growth", absAxis("alloc_bytes", "bytes/op", 0, 0, 0, 0), nil, DefaultOptions,
			"pass", 0, "changed by 0 B/op from a reference median of 0 B/op: no growth"},
		{"zero reference, growth under the floor", absAxis("rss_change", "bytes/op", 0, 100, 50, 150), nil, floorOp,
			"pass", 100, "under the 256 B/op floor"},
		{"zero reference with a floor", absAxis("rss_change", "bytes/op", 0, 4096, 1000, 8000), nil, floorOp,
			"fail", 4096, "changed by +4 KiB/op from a reference median of 0 B/op: at least the 256 B/op floor"},
		{"zero reference, interval reaches zero", absAxis("rss_change", "bytes/op", 0, 4096, -10, 8000), nil, floorOp,
			"pass", 4096, "inside its interval, which reaches -10 B/op"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it := memoryItem(paired("x", 0, -1, 1), &c.axis, c.noise.forRun(testHost), c.opt)
			if it.Outcome != c.outcome || math.Abs(it.Value-c.value) > 1e-9 || !strings.Contains(it.Why, c.why) {
				t.Errorf("got %s, value %g, why %q; want %s, %g, %q", it.Outcome, it.Value, it.Why, c.outcome, c.value, c.why)
			}
		})
	}
}

func TestIsMemory(t *testing.T) {
	run := &ndjson.Run{Axes: []ndjson.AxisInfo{{Name: "heap_io", Unit: "bytes/op", Family: "io"}, {Name: "arena", Unit: "B", Family: "custom"}}}
	for name, unit := range map[string]string{"rss_peak": "bytes", "rss_change": "bytes/op", "alloc_bytes": "bytes/op", "live_heap": "bytes", "arena": "B", "x": "B/op"} {
		if !isMemory(&ndjson.AxisComparison{Name: name, Unit: unit}, run) {
			t.Errorf("%s (%s) is memory", name, unit)
		}
	}
	for name, unit := range map[string]string{"read_bytes": "bytes/op", "write_bytes": "bytes/op", "heap_io": "bytes/op", "wall": "ns/op", "minor_faults": "faults/op", "bytes_seen": "count"} {
		if isMemory(&ndjson.AxisComparison{Name: name, Unit: unit}, run) {
			t.Errorf("%s (%s) is not memory", name, unit)
		}
	}
}

func TestCounterItem(t *testing.T) {
	cases := []struct {
		axis    ndjson.AxisComparison
		outcome string
		why     string
	}{
		{exactAxis("instructions_sim", "lower", 1000, 1200, "increased"), "fail", "increased by 1200 instructions/op: any change for the worse"},
		{exactAxis("instructions_sim", "lower", 1000, 1, "increased"), "fail", "increased by 1 instructions/op"},
		{exactAxis("instructions_sim", "lower", 1000, 0, "no change"), "pass", "no change"},
		{exactAxis("instructions_sim", "lower", 1000, -7, "decreased"), "pass", "decreased by 7 instructions/op"},
		{exactAxis("hits", "higher", 1000, -7, "decreased"), "fail", "decreased by 7"},
		{exactAxis("hits", "higher", 1000, 7, "increased"), "pass", "increased by 7"},
		{exactAxis("branches_sim", "lower", 1000, -3, "not deterministic"), "fail", "not deterministic"},
		{exactAxis("gc_runs", "diagnostic", 10, 2, "increased"), "skip", "diagnostic count"},
		{missingAxis("instructions_sim", "instructions/op", "probe_failed", "valgrind not found"), "skip", "probe failed: valgrind not found"},
	}
	for _, c := range cases {
		it := counterItem(paired("x", 0, -1, 1), &c.axis, false)
		if it.Outcome != c.outcome || !strings.Contains(it.Why, c.why) || it.Kind != "counter" || it.Window != 0 {
			t.Errorf("%s %s: got %s %q (window %g); want %s %q", c.axis.Name, c.axis.Direction, it.Outcome, it.Why, it.Window, c.outcome, c.why)
		}
	}
}

func TestIsCounter(t *testing.T) {
	exact := map[string]bool{"cache_refs_sim": true}
	ins := exactAxis("instructions_sim", "lower", 1, 0, "no change")
	if !isCounter(&ins, nil) {
		t.Error("an exact result is a counter")
	}
	missing := missingAxis("cache_refs_sim", "refs/op", "probe_failed", "")
	if !isCounter(&missing, exact) {
		t.Error("an unavailable axis a counter record names is a counter")
	}
	rel := relAxis("cache_refs_sim", "refs/op", "lower", 1, 0, -1, 1)
	if isCounter(&rel, exact) {
		t.Error("a sampled result is not a counter, whatever the name")
	}
}
