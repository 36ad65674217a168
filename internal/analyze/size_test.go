package analyze

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
)

// sizedStream writes a two-case paired run in which case c of unit u ran
// size(c, u) operations at op(c, n) ns each.
func sizedStream(t *testing.T, n int, batching string, size func(c, u int) int64, op func(c int, n int64) float64) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "r-1", Tool: "fb-pair", Design: ndjson.DesignPaired, Batching: batching,
		Cases: []ndjson.Case{{Index: 0, Name: "old"}, {Index: 1, Name: "new"}},
		Clock: ndjson.Clock{Backend: "fake", NominalNS: 1}}
	run.Config.Samples = n
	must(t, w.Write(run))
	seq := 0
	for u, order := range schedule.Paired(n, 1).Units {
		for pos, c := range order {
			it := size(c, u)
			v := op(c, it)
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: seq, Iter: it, WallNS: int64(v * float64(it)), OpNS: v}))
			seq++
		}
	}
	must(t, w.Write(&ndjson.End{RunID: "r-1", Reason: ndjson.EndCompleted, Units: n, Samples: []int{n, n}}))
	return buf.Bytes()
}

// unitFactors are log-uniform factors on [1/2, 2], one per unit.
func unitFactors(n int) []float64 {
	r := rand.New(rand.NewPCG(5, 6))
	f := make([]float64, n)
	for i := range f {
		f[i] = math.Pow(4, r.Float64()-0.5)
	}
	return f
}

// perDoubling97 is a cost a·N^β that falls 3% per doubling of N.
var beta97 = math.Log2(0.97)

func sizeWarning(c ndjson.Comparison) string {
	for _, w := range c.Warnings {
		if strings.Contains(w, "batch size") {
			return w
		}
	}
	return ""
}

// TestSizeDiagnosticSharedExact: both sides ran one size per pair, varied
// across pairs, and both pay the same dependence (3% cheaper per
// doubling): the diagnostic finds exactly that, the change does not
// depend on the size, and nothing warns.
func TestSizeDiagnosticSharedExact(t *testing.T) {
	f := unitFactors(60)
	in := sizedStream(t, 60, "shared-iterations",
		func(_, u int) int64 { return int64(math.Round(10_000 * f[u])) },
		func(c int, n int64) float64 { return (100 + 5*float64(c)) * math.Pow(float64(n), beta97) })
	res, _ := analyzeBytes(t, in, DefaultOptions)
	c := res.comparisons[0]
	z := c.Sizes
	if z == nil || z.Status != ndjson.SizesVaried || !z.EqualInPairs || z.Ratio != 1 || z.SizeSlope == nil || z.Pooled == nil || z.Change == nil {
		t.Fatalf("sizes %+v", z)
	}
	for name, s := range map[string]*ndjson.SizeSlope{"pooled": z.Pooled, "reference": z.Reference, "contender": z.Contender} {
		if math.Abs(s.PerDoublingPct+3) > 1e-9 || math.Abs(s.CI[0]+3) > 1e-9 || math.Abs(s.CI[1]+3) > 1e-9 || !s.Significant || s.Samples != 60 {
			t.Errorf("%s: %+v, want exactly -3%% per doubling", name, s)
		}
	}
	if math.Abs(z.Change.PerDoublingPct) > 1e-9 || z.Change.Significant {
		t.Errorf("change: %+v, want no dependence", z.Change)
	}
	if w := sizeWarning(c); w != "" || math.Abs(c.ChangePct-5) > 1e-6 {
		t.Errorf("change %v, warning %q", c.ChangePct, w)
	}
}

// TestSizeDiagnosticUnequalVaried: two identical programs, each side its
// own size (equal time: 20,000 and 8,900 operations, varied alike), a
// cost 3% cheaper per doubling: the change is the sizes' doing, and the
// diagnostic says exactly how much.
func TestSizeDiagnosticUnequalVaried(t *testing.T) {
	f := unitFactors(60)
	base := []float64{20_000, 8_900}
	in := sizedStream(t, 60, "equal-time",
		func(c, u int) int64 { return int64(math.Round(base[c] * f[u])) },
		func(_ int, n int64) float64 { return 100 * math.Pow(float64(n), beta97) })
	res, _ := analyzeBytes(t, in, DefaultOptions)
	c := res.comparisons[0]
	z := c.Sizes
	if z == nil || z.EqualInPairs || z.BiasPct == nil || z.Pooled != nil || z.Change != nil {
		t.Fatalf("sizes %+v", z)
	}
	if math.Abs(*z.BiasPct-c.ChangePct) > 0.01 || c.ChangePct < 3 {
		t.Fatalf("bias %v, change %v: an A/A whose whole change is the sizes'", *z.BiasPct, c.ChangePct)
	}
	w := sizeWarning(c)
	if !strings.Contains(w, "different batch sizes (median 20955 and 9325 operations)") || !strings.Contains(w, "-3.00% per doubling") ||
		!strings.Contains(w, "+3.62% [+3.62, +3.62] of the change may come from the sizes") {
		t.Fatalf("warning %q", w)
	}
}

// TestSizeDiagnosticArchivedUnequal: a stream from before shared sizes,
// each side its own fixed size, gets the warning that it cannot tell.
func TestSizeDiagnosticArchivedUnequal(t *testing.T) {
	in := sizedStream(t, 30, "equal-time",
		func(c, _ int) int64 { return []int64{21589, 12407}[c] },
		func(c int, _ int64) float64 { return 400 + float64(c) })
	res, _ := analyzeBytes(t, in, DefaultOptions)
	c := res.comparisons[0]
	if z := c.Sizes; z == nil || z.Status != ndjson.SizesFixed || z.EqualInPairs || z.SizeSlope != nil || z.BiasPct != nil {
		t.Fatalf("sizes %+v", c.Sizes)
	}
	if w := sizeWarning(c); !strings.Contains(w, "(21589 and 12407 operations), each fixed for the run") {
		t.Fatalf("warning %q", w)
	}
	// equal fixed sizes are one workload: nothing to warn about
	in = sizedStream(t, 30, "shared-iterations", func(int, int) int64 { return 500 }, func(c int, _ int64) float64 { return 400 + float64(c) })
	res, _ = analyzeBytes(t, in, DefaultOptions)
	if z := res.comparisons[0].Sizes; z.Status != ndjson.SizesFixed || !z.EqualInPairs || sizeWarning(res.comparisons[0]) != "" {
		t.Fatalf("equal fixed sizes: %+v %v", z, res.comparisons[0].Warnings)
	}
}

// TestSizeDiagnosticChangeDependsOnSize: a contender whose every batch
// starts a process costing 2 ms more than the reference's: in small
// batches the change is larger, and the diagnostic says so.
func TestSizeDiagnosticChangeDependsOnSize(t *testing.T) {
	f := unitFactors(80)
	in := sizedStream(t, 80, "shared-iterations",
		func(_, u int) int64 { return int64(math.Round(1000 * f[u])) },
		func(c int, n int64) float64 { return 10_000 + float64(3_000_000+2_000_000*c)/float64(n) })
	res, _ := analyzeBytes(t, in, DefaultOptions)
	c := res.comparisons[0]
	if z := c.Sizes; z.Change == nil || !z.Change.Significant || z.Change.PerDoublingPct >= 0 {
		t.Fatalf("change slope %+v", c.Sizes.Change)
	}
	if w := sizeWarning(c); !strings.Contains(w, "the change itself depends on the batch size") {
		t.Fatalf("warning %q", w)
	}
}

// TestSizeDiagnosticPerBatchCost: a batch process whose start-up is most
// of every batch (5 ms against 1,000 operations of 1 µs): the time per
// operation falls by nearly half per doubling, and the warning says how
// much of a batch is that cost.
func TestSizeDiagnosticPerBatchCost(t *testing.T) {
	f := unitFactors(60)
	in := sizedStream(t, 60, "shared-iterations",
		func(_, u int) int64 { return int64(math.Round(1000 * f[u])) },
		func(_ int, n int64) float64 { return 1000 + 5_000_000/float64(n) })
	res, _ := analyzeBytes(t, in, DefaultOptions)
	var w string
	for _, s := range res.comparisons[0].Warnings {
		if strings.Contains(s, "cost per batch") {
			w = s
		}
	}
	if !strings.Contains(w, "the time per operation falls 4") || !strings.Contains(w, "about 8") {
		t.Fatalf("warnings %q", res.comparisons[0].Warnings)
	}
}
