package axes

import (
	"strings"
	"testing"
)

// TestValidName holds the rule every declared case and axis name follows,
// in the worker protocol, custom axes and the Go worker package alike.
func TestValidName(t *testing.T) {
	for s, ok := range map[string]bool{
		"a": true, "sum-unrolled": true, "a.b_c": true, "x9": true, strings.Repeat("a", 48): true,
		"": false, "A": false, "9x": false, "a b": false, "a/b": false, "aB": false,
		strings.Repeat("a", 49): false, "é": false, "_a": false,
	} {
		if err := ValidName(s); (err == nil) != ok {
			t.Errorf("ValidName(%q) = %v, want ok %v", s, err, ok)
		}
	}
}

func TestValidText(t *testing.T) {
	for s, ok := range map[string]bool{
		"ns": true, "items/op": true, "B/s": true, strings.Repeat("u", 24): true,
		"": false, "a b": false, "a,b": false, `a"b`: false, "a'b": false, `a\b`: false, "µs": false, "a\tb": false,
		strings.Repeat("u", 25): false,
	} {
		if err := ValidText("unit", s, MaxUnitLen); (err == nil) != ok {
			t.Errorf("ValidText(%q) = %v, want ok %v", s, err, ok)
		}
	}
	if err := ValidText("unit", "", MaxUnitLen); err == nil || !strings.HasPrefix(err.Error(), "unit ") {
		t.Errorf("ValidText error %v does not name the field", err)
	}
}
