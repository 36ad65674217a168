package analyze

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// withBlocks marks a paired stream's samples with two process blocks of
// half the units each and adds a block record after each half.
func withBlocks(t *testing.T, in []byte, n int) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(string(in), "\n") {
		if strings.Contains(line, `"type":"sample"`) {
			var unit int
			if _, err := fmt.Sscanf(line[strings.Index(line, `"unit":`):], `"unit":%d`, &unit); err != nil {
				t.Fatal(err)
			}
			b := unit / (n / 2)
			line = strings.Replace(line, "}\n", fmt.Sprintf(`,"proc":{"block":%d,"attempt":0}}`+"\n", b), 1)
			out.WriteString(line)
			if strings.Contains(line, `"seq":`+fmt.Sprint(n-1)+`,`) || strings.Contains(line, `"seq":`+fmt.Sprint(2*n-1)+`,`) {
				fmt.Fprintf(&out, `{"type":"block","v":"1.4","run_id":"r-1","block":%d,"attempt":0,"order":[0,1],"status":"complete","samples":[%d,%d]}`+"\n", b, n/2, n/2)
			}
			continue
		}
		out.WriteString(line)
	}
	return out.Bytes()
}

// TestBlocksAreReplicates: samples marked with their process block, and
// the block records between them, make the block the replicate of the
// comparison: its decision interval is the one over blocks, at least as wide as the
// pairs' own (two blocks: one degree of freedom), which is kept beside it;
// the estimate, the summaries and the analysis record are unchanged, and
// the block records pass through.
func TestBlocksAreReplicates(t *testing.T) {
	const n = 40
	plain := pairedStream(t, n, func(u int) float64 { return 100 + float64(u%7) }, func(u int) float64 { return 95 + float64(u%5) }, true)
	blocked := withBlocks(t, plain, n)
	if bytes.Count(blocked, []byte(`"type":"block"`)) != 2 || bytes.Count(blocked, []byte(`"proc":`)) != 2*n {
		t.Fatalf("blocked stream:\n%s", blocked)
	}
	want, _ := analyzeBytes(t, plain, DefaultOptions)
	got, _ := analyzeBytes(t, blocked, DefaultOptions)
	if !reflect.DeepEqual(got.summaries, want.summaries) || !reflect.DeepEqual(got.analysis, want.analysis) {
		t.Fatalf("summaries or analysis record changed by blocks")
	}
	g, w := got.comparisons[0], want.comparisons[0]
	if w.Blocked != nil || g.Blocked == nil || g.Blocked.Blocks != 2 || g.Blocked.WithinCI != w.ChangeCI {
		t.Fatalf("blocked %+v (within must be the plain interval %v)", g.Blocked, w.ChangeCI)
	}
	if !near(g.ChangePct, w.ChangePct) || !(g.ChangeCI[0] <= w.ChangeCI[0] && g.ChangeCI[1] >= w.ChangeCI[1]) {
		t.Errorf("over blocks: %v %v, plain: %v %v", g.ChangePct, g.ChangeCI, w.ChangePct, w.ChangeCI)
	}
	blocks := 0
	for _, typ := range got.passed {
		if typ == ndjson.TypeBlock {
			blocks++
		}
	}
	if blocks != 2 {
		t.Fatalf("passed through %v", got.passed)
	}
}
