package wproto

import (
	"testing"

	"github.com/flybench/flybench/internal/custom"
)

// TestHandshakeExactAxis: a worker declares a deterministic counter with
// compare=exact; the declaration round-trips and its run record entry
// says so.
func TestHandshakeExactAxis(t *testing.T) {
	text := "flybench-worker 1\ncase walk\naxis nodes unit=nodes/op compare=exact\nready\n"
	h, err := ParseHandshake(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Axes) != 1 || h.Axes[0].Compare != custom.Exact || h.Axes[0].Info().Comparison != "exact" {
		t.Fatalf("axes %+v", h.Axes)
	}
	if h.String() != text {
		t.Errorf("String:\n%s\nwant\n%s", h.String(), text)
	}
	if _, err := ParseHandshake("flybench-worker 1\ncase walk\naxis nodes unit=n compare=exactly\nready\n"); err == nil {
		t.Error("compare=exactly accepted")
	}
}
