package words

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestAASpread(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	a := &ndjson.AA{ConfidencePct: 95}
	if AASpread(a) != "" || AASpreadWarning(a) != "" {
		t.Fatal("a record without a spread says something of it")
	}
	a.Spread, a.SpreadCI = f(1.1), &[2]float64{0.8, 1.5}
	if got := AASpread(a); got != "the changes scatter 1.10× what their intervals allow (1 when calibrated), 95% CI 0.80 .. 1.50" {
		t.Fatalf("%q", got)
	}
	if w := AASpreadWarning(a); w != "" {
		t.Fatalf("an interval holding 1 warned: %q", w)
	}
	a.Spread, a.SpreadCI = f(1.6), &[2]float64{1.2, 2.1}
	if w := AASpreadWarning(a); !strings.Contains(w, "1.60×, at least 1.20×") {
		t.Fatalf("%q", w)
	}
}
