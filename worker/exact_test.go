package worker

import (
	"strings"
	"testing"
)

// TestExactAxis declares a deterministic counter: it reaches the
// handshake as compare=exact and its readings are reported like any
// cumulative axis's.
func TestExactAxis(t *testing.T) {
	w := New()
	nodes := int64(0)
	w.Case("walk", func(n int) { nodes += 3 * int64(n) })
	w.Axis(AxisDecl{Name: "nodes", Unit: "nodes/op", Compare: "exact"}, func() Reading { return Count(nodes) })
	if !strings.Contains(w.handshake(), "axis nodes unit=nodes/op compare=exact\n") {
		t.Fatalf("handshake:\n%s", w.handshake())
	}
	s := serve(t, w)
	d, err := s.run("walk", 10)
	if err != nil {
		t.Fatal(err)
	}
	if d.Values["nodes"] != "0:30" {
		t.Errorf("values %v", d.Values)
	}
	if err := (AxisDecl{Name: "x", Unit: "u", Compare: "exactly"}).validate(); err == nil ||
		!strings.Contains(err.Error(), "use relative, absolute, exact") {
		t.Errorf("compare=exactly: %v", err)
	}
}
