package words

import (
	"fmt"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Sizes is the comparison card's sizes row: what workload the sides
// ran and how the time per operation depended on it; "" for a stream
// without the diagnostic, or one whose every batch was one operation.
func Sizes(z *ndjson.Sizes, names field.Names) string {
	switch {
	case z == nil:
		return ""
	case z.EqualInPairs && z.Status == ndjson.SizesFixed && z.Range[1] == 1:
		return ""
	case z.EqualInPairs && z.Status == ndjson.SizesFixed:
		return fmt.Sprintf("one workload per pair: %d operations, fixed (%s 1): a dependence on the size cannot be seen", z.Range[0], names.Spell(FieldSizeSpread))
	case z.EqualInPairs:
		return fmt.Sprintf("one workload per pair: %d .. %d operations (median %d)%s%s", z.Range[0], z.Range[1], z.Median[0],
			slopeClause("time per operation", z.Pooled), slopeClause("the change", z.Change))
	}
	text := fmt.Sprintf("reference %d, contender %d operations (median per batch)", z.Median[0], z.Median[1])
	if z.Status == ndjson.SizesFixed {
		return text + ", each fixed: the estimate assumes a cost independent of the size"
	}
	text += slopeClause("contender", z.Contender)
	if z.BiasPct != nil {
		text += fmt.Sprintf("; of the change, %+.2f%% [%+.2f, %+.2f] from the sizes", *z.BiasPct, z.BiasCI[0], z.BiasCI[1])
	}
	return text
}

// slopeClause is "; NAME -1.40%/doubling [-2.10, -0.70]", "" without a slope.
func slopeClause(name string, s *ndjson.SizeSlope) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("; %s %+.2f%%/doubling [%+.2f, %+.2f]", name, s.PerDoublingPct, s.CI[0], s.CI[1])
}

// SizeRange is " (1 to 9, varied per unit; -2.99%/doubling [-3.95,
// -2.05])" for a case whose batch sizes varied, "" otherwise.
func SizeRange(s *ndjson.Summary) string {
	if s.SizeRange == nil {
		return ""
	}
	text := fmt.Sprintf(" (%d to %d, varied per unit", s.SizeRange[0], s.SizeRange[1])
	if z := s.SizeSlope; z != nil {
		text += fmt.Sprintf("; %+.2f%%/doubling [%+.2f, %+.2f]", z.PerDoublingPct, z.CI[0], z.CI[1])
	}
	return text + ")"
}
