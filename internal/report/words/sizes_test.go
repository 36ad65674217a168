package words

import (
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

func TestSizesText(t *testing.T) {
	slope := func(p, lo, hi float64) *ndjson.SizeSlope {
		return &ndjson.SizeSlope{PerDoublingPct: p, CI: [2]float64{lo, hi}, Significant: lo > 0 || hi < 0}
	}
	bias, ci := 1.25, [2]float64{0.5, 2}
	for _, tc := range []struct {
		z    *ndjson.Sizes
		want string
	}{
		{nil, ""},
		{&ndjson.Sizes{Status: ndjson.SizesFixed, EqualInPairs: true, Range: [2]int64{1, 1}}, ""},
		{&ndjson.Sizes{Status: ndjson.SizesFixed, EqualInPairs: true, Range: [2]int64{500, 500}},
			"one workload per pair: 500 operations, fixed (--size-spread 1): a dependence on the size cannot be seen"},
		{&ndjson.Sizes{Status: ndjson.SizesVaried, EqualInPairs: true, Range: [2]int64{5765, 23026}, Median: [2]int64{11631, 11631},
			Pooled: slope(-1.4, -2.1, -0.7), Change: slope(0.1, -0.5, 0.7)},
			"one workload per pair: 5765 .. 23026 operations (median 11631); time per operation -1.40%/doubling [-2.10, -0.70]; the change +0.10%/doubling [-0.50, +0.70]"},
		{&ndjson.Sizes{Status: ndjson.SizesFixed, Median: [2]int64{21589, 12407}},
			"reference 21589, contender 12407 operations (median per batch), each fixed: the estimate assumes a cost independent of the size"},
		{&ndjson.Sizes{Status: ndjson.SizesVaried, Median: [2]int64{20000, 8900}, Contender: slope(-1, -1.5, -0.4), BiasPct: &bias, BiasCI: &ci},
			"reference 20000, contender 8900 operations (median per batch); contender -1.00%/doubling [-1.50, -0.40]; of the change, +1.25% [+0.50, +2.00] from the sizes"},
	} {
		if got := Sizes(tc.z, flags); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
