package custom

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
)

func decl(t *testing.T, line string) Descriptor {
	t.Helper()
	d, err := ParseDecl(strings.Fields(line))
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return d
}

func TestParseDeclDefaults(t *testing.T) {
	d := decl(t, "items.done unit=items/op")
	if d.Direction != axes.LowerIsBetter || d.Semantics != Cumulative || d.Normalize != PerOperation || d.Compare != Relative {
		t.Fatalf("defaults %+v", d)
	}
	d = decl(t, "gc-pause unit=ns direction=diagnostic semantics=elapsed normalize=batch compare=absolute primary=1 source=go-runtime resolution=1")
	if !d.Primary || d.Source != "go-runtime" || d.Normalize != PerBatch || d.Compare != Absolute {
		t.Fatalf("explicit %+v", d)
	}
	info := d.Info()
	if info.Family != "custom" || info.Normalization != "per_batch" || !info.Primary || info.Semantics != "elapsed" {
		t.Fatalf("info %+v", info)
	}
}

func TestDeclarationRefusals(t *testing.T) {
	cases := map[string]string{
		"Items unit=x":                      "must begin with a lowercase letter",
		"9lives unit=x":                     "must begin with a lowercase letter",
		"a$b unit=x":                        "only lowercase letters",
		"x":                                 "unit= is required",
		"x unit=a,b":                        "without spaces, commas",
		"x unit=\"q\"":                      "quotes",
		"x unit=" + strings.Repeat("u", 25): "1 to 24 characters",
		"x unit=u direction=up":             "direction \"up\"",
		"x unit=u semantics=total":          "semantics",
		"x unit=u normalize=run":            "normalize",
		"x unit=u compare=ratio":            "compare",
		"x unit=u compare=exactly":          "use relative, absolute or exact",
		"x unit=u primary=1":                "semantics elapsed",
		"x unit=ns semantics=elapsed primary=1 resolution=1": "timing source",
		"x unit=ns semantics=elapsed primary=1 source=s":     "positive resolution",
		"x unit=u colour=red":                                "unknown attribute",
		"x unit":                                             "not key=value",
		strings.Repeat("a", 49) + " unit=u":                  "1 to 48 characters",
	}
	for line, want := range cases {
		_, err := ParseDecl(strings.Fields(line))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
}

func TestValidateSet(t *testing.T) {
	a, b := decl(t, "a unit=u"), decl(t, "b unit=u")
	if err := ValidateSet([]Descriptor{a, b}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		set  []Descriptor
		want string
	}{
		{[]Descriptor{a, a}, "declared twice"},
		{[]Descriptor{decl(t, "cpu unit=u")}, "collides with a built-in"},
		{[]Descriptor{decl(t, "elapsed_ns unit=u")}, "collides with a built-in"},
		{[]Descriptor{
			decl(t, "t1 unit=ns semantics=elapsed primary=1 source=s resolution=1"),
			decl(t, "t2 unit=ns semantics=elapsed primary=1 source=s resolution=1"),
		}, "at most one primary"},
	} {
		if err := ValidateSet(tc.set); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
	nine := make([]Descriptor, 9)
	for i := range nine {
		nine[i] = decl(t, string(rune('a'+i))+" unit=u")
	}
	if err := ValidateSet(nine); err == nil || !strings.Contains(err.Error(), "at most 8") {
		t.Fatalf("nine axes: %v", err)
	}
}

func TestValueStatuses(t *testing.T) {
	cum := decl(t, "c unit=u")
	abs := decl(t, "a unit=u semantics=absolute normalize=batch")
	el := decl(t, "e unit=ns semantics=elapsed")
	for _, tc := range []struct {
		d    Descriptor
		raw  string
		n    int64
		st   axes.Status
		want float64
	}{
		{cum, "100:500", 4, axes.Collected, 100},
		{cum, "500:100", 4, axes.CounterReset, 0},
		{cum, "-9223372036854775808:9223372036854775807", 1, axes.ConversionOverflow, 0},
		{cum, "1:99999999999999999999", 1, axes.ConversionOverflow, 0},
		{cum, "12", 1, axes.InvalidValue, 0},
		{cum, "a:b", 1, axes.InvalidValue, 0},
		{abs, "7.5", 3, axes.Collected, 7.5},
		{abs, "NaN", 1, axes.InvalidValue, 0},
		{abs, "+Inf", 1, axes.InvalidValue, 0},
		{abs, "1e999", 1, axes.InvalidValue, 0},
		{el, "-1", 1, axes.InvalidValue, 0},
		{el, "3000", 1000, axes.Collected, 3},
		{el, "1.7e308", 0, axes.ConversionOverflow, 0},
	} {
		v := tc.d.Value(tc.raw, tc.n)
		if axes.Status(v.S) != tc.st {
			t.Errorf("%s %q: status %s (%s), want %s", tc.d.Name, tc.raw, v.S, v.R, tc.st)
			continue
		}
		if tc.st == axes.Collected && (v.V == nil || *v.V != tc.want) {
			t.Errorf("%s %q: value %v, want %v", tc.d.Name, tc.raw, v.V, tc.want)
		}
		if tc.st != axes.Collected && (v.V != nil || v.R == "") {
			t.Errorf("%s %q: an unavailable value must carry a reason and no value: %+v", tc.d.Name, tc.raw, v)
		}
	}
}
