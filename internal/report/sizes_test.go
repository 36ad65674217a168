package report

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// TestSizesRowInCardAndMarkdown: the comparison card and the Markdown
// report both carry the row.
func TestSizesRowInCardAndMarkdown(t *testing.T) {
	runs := fixtureRuns(t)
	r := runs[0]
	r.Comparisons[0].Sizes = &ndjson.Sizes{Status: ndjson.SizesFixed, EqualInPairs: true, Range: [2]int64{3, 3}, Median: [2]int64{3, 3}}
	var console, md strings.Builder
	if err := Write(&console, runs[:1], Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&md, runs[:1], Options{Format: "markdown"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(console.String(), "   sizes      | one workload per pair: 3 operations, fixed") {
		t.Errorf("console:\n%s", console.String())
	}
	if !strings.Contains(md.String(), "_Batch sizes: one workload per pair: 3 operations, fixed") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
