package words

import (
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestLayoutText(t *testing.T) {
	for _, tc := range []struct {
		l    *ndjson.Layout
		want string
	}{
		{nil, "paired adjacent, order-balanced"},
		{&ndjson.Layout{Randomized: true, EnvVar: "FLYBENCH_LAYOUT_PAD", MaxPad: 4095, StackRandomized: "yes"},
			"paired adjacent, order-balanced, layout randomized (FLYBENCH_LAYOUT_PAD padded 0–4095 B per unit)"},
		{&ndjson.Layout{StackRandomized: "yes"}, "paired adjacent, order-balanced, layout fixed (--randomize-layout=false)"},
		{&ndjson.Layout{StackRandomized: "no", NoRandomize: true},
			"paired adjacent, order-balanced, layout fixed (--randomize-layout=false, stack not randomized by the kernel)"},
	} {
		if got := WithLayout("paired adjacent, order-balanced", tc.l, flags); got != tc.want {
			t.Errorf("WithLayout(%+v) = %q, want %q", tc.l, got, tc.want)
		}
	}
}
