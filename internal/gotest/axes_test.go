package gotest

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
)

func TestAxes(t *testing.T) {
	r, err := Parse(fixture(t, "metrics"), Spec{Binary: "x.test", Bench: "BenchmarkAlloc"}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse(fixture(t, "bytes"), Spec{Binary: "x.test", Bench: "BenchmarkBytes"}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	ds := Axes(r, b)
	want := []struct {
		name, unit string
		dir        axes.Direction
		cmp        custom.Comparison
	}{
		{"alloc_bytes", "B/op", axes.LowerIsBetter, custom.Absolute},
		{"allocs", "allocs/op", axes.LowerIsBetter, custom.Absolute},
		{"mb_per_s", "MB/s", axes.HigherIsBetter, custom.Relative},
		{"hit-ratio", "hit-ratio", axes.Diagnostic, custom.Absolute},
		{"p95-ns", "p95-ns", axes.Diagnostic, custom.Absolute},
		{"widgets", "widgets/op", axes.Diagnostic, custom.Absolute},
	}
	if len(ds) != len(want) {
		t.Fatalf("%d axes: %+v", len(ds), ds)
	}
	for i, w := range want {
		d := ds[i]
		if d.Name != w.name || d.Unit != w.unit || d.Direction != w.dir || d.Compare != w.cmp ||
			d.Semantics != custom.AbsoluteV || d.Normalize != custom.PerBatch || d.Primary || d.Scope == "" {
			t.Errorf("axis %d: %+v, want %+v", i, d, w)
		}
	}
	if err := custom.ValidateSet(ds); err != nil {
		t.Fatal(err)
	}
	if len(Axes(Result{})) != 0 {
		t.Fatal("axes without metrics")
	}
}

func TestAxisName(t *testing.T) {
	cases := map[string]string{
		"B/op":                             "alloc_bytes",
		"allocs/op":                        "allocs",
		"MB/s":                             "mb_per_s",
		"widgets/op":                       "widgets",
		"Widgets/op":                       "widgets",
		"rows/s":                           "rows_per_s",
		"ns/elem":                          "ns_per_elem",
		"hit%":                             "hitpct",
		"µs/op":                            "us",
		"a:b=c/op":                         "a_b_c",
		"95th-ns":                          "go_95th-ns",
		"_x":                               "go__x",
		"cycles/op":                        "go_cycles",
		"wall/op":                          "go_wall",
		"elapsed_ns/op":                    "go_elapsed_ns",
		"allocs":                           "go_allocs",
		"alloc_bytes":                      "go_alloc_bytes",
		"/op":                              "go",
		"x/op/op":                          "x_per_op",
		strings.Repeat("long", 20) + "/op": strings.Repeat("long", 12),
	}
	for unit, want := range cases {
		got := AxisName(unit)
		if got != want {
			t.Errorf("%q: %q, want %q", unit, got, want)
		}
		if err := axes.ValidName(got); err != nil {
			t.Errorf("%q: %v", unit, err)
		}
	}
}

func TestAxisUnit(t *testing.T) {
	cases := map[string]string{
		"widgets/op":                     "widgets/op",
		"µs/op":                          "us/op",
		`a,b"c'd\e`:                      "a_b_c_d_e",
		"héllo":                          "h_llo",
		strings.Repeat("u", 30) + "/op":  strings.Repeat("u", 21) + "/op",
		strings.Repeat("u", 30) + "/run": strings.Repeat("u", 24),
	}
	for unit, want := range cases {
		if got := AxisUnit(unit); got != want {
			t.Errorf("%q: %q, want %q", unit, got, want)
		}
	}
}

// Whatever unit a benchmark reports, its axis is a valid declaration.
func TestEveryUnitDeclares(t *testing.T) {
	for _, u := range []string{"x", "X", "9", "%", "µ", "/", "//op", "a,b", `"`, "é/op", "ns/op/op",
		strings.Repeat("é", 40), strings.Repeat("z", 60) + "/op", "elapsed_ns", "rss_peak/op", "ipc"} {
		d := describe(u)
		if err := d.Validate(); err != nil {
			t.Errorf("%q: %v", u, err)
		}
		if err := custom.ValidateSet([]custom.Descriptor{d}); err != nil {
			t.Errorf("%q: %v", u, err)
		}
	}
}

func TestValues(t *testing.T) {
	r := Result{Name: "BenchmarkX-2", Iterations: 1000, NsPerOp: 5,
		Metrics: map[string]float64{"B/op": 0, "allocs/op": 0, "widgets/op": 2.5}}
	ds := Axes(r, Result{Metrics: map[string]float64{"MB/s": 1}})
	v, err := Values(ds, r)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"alloc_bytes": 0, "allocs": 0, "widgets": 2.5} {
		if got := v[name]; got.S != string(axes.Collected) || got.V == nil || *got.V != want {
			t.Errorf("%s: %+v, want %v (Go's per-op value, not divided again)", name, got, want)
		}
	}
	if got := v["mb_per_s"]; got.S != string(axes.ProbeFailed) || got.V != nil || !strings.Contains(got.R, "did not report MB/s") {
		t.Errorf("missing axis: %+v", got)
	}
	r.Metrics["gadgets/op"] = 1
	if _, err := Values(ds, r); err == nil || !strings.Contains(err.Error(), "gadgets/op, which was not declared as axis gadgets") {
		t.Errorf("undeclared unit: %v", err)
	}
}

func TestTimerConstants(t *testing.T) {
	d := custom.Descriptor{Name: "go_ns", Unit: "ns/op", Semantics: custom.Elapsed, Primary: true,
		Source: TimerSource, Resolution: TimerResolutionNS}.Defaults()
	if err := d.Validate(); err != nil {
		t.Fatalf("the timer source must be a valid timing source: %v", err)
	}
}
