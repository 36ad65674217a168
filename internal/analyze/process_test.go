package analyze

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// blockStream writes a two-case run in process blocks: in block b both
// cases take base(b) ns/op times the contender's factor con(b), with a
// small within-block wobble; status(b) is the block's record status.
func blockStream(t *testing.T, blocks, perBlock int, base, con func(b int) float64, status func(b int) string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "r-b", Tool: "fb-pair", Mode: "worker", Design: ndjson.DesignPaired, Batching: "equal-time",
		Cases: []ndjson.Case{{Index: 0, Name: "old"}, {Index: 1, Name: "new"}}, Clock: ndjson.Clock{Backend: "fake", NominalNS: 1}}
	run.Config.Samples, run.Config.Invocations, run.Config.ProcessDesign = perBlock, blocks, "ab-ba"
	must(t, w.Write(run))
	unit, seq := 0, 0
	for b := range blocks {
		orient, order := "AB", []int{0, 1}
		if b%2 == 1 {
			orient, order = "BA", []int{1, 0}
		}
		for u := range perBlock {
			for pos, c := range order {
				op := base(b) * (1 + 0.002*math.Sin(float64(u*3+c)))
				if c == 1 {
					op *= con(b)
				}
				must(t, w.Write(&ndjson.Sample{Case: c, Unit: unit, Pos: pos, Seq: seq, Iter: 10, WallNS: int64(op * 10), OpNS: op,
					Proc: &ndjson.ProcessRef{Block: b}}))
				seq++
			}
			unit++
		}
		must(t, w.Write(&ndjson.Block{RunID: "r-b", Block: b, Order: order, Orientation: orient, Status: status(b), Samples: []int{perBlock, perBlock}}))
	}
	must(t, w.Write(&ndjson.End{RunID: "r-b", Reason: ndjson.EndCompleted, Units: unit, Samples: []int{unit, unit}}))
	return buf.Bytes()
}

func complete(int) string { return ndjson.BlockComplete }

func TestProcessLevelComparison(t *testing.T) {
	// Processes differ by up to ±8% from one block to the next, and in
	// every block the contender is 5% slower.
	base := func(b int) float64 { return 1000 * (1 + 0.08*math.Sin(float64(b)*2.1)) }
	in := blockStream(t, 10, 20, base, func(int) float64 { return 1.05 }, complete)
	res, _ := analyzeBytes(t, in, DefaultOptions)
	pl := res.comparisons[0].Process
	if pl == nil || pl.Status != ndjson.ProcessOK || pl.Runs != 10 || pl.Strata != 2 || pl.Design != "paired" {
		t.Fatalf("process level = %+v", pl)
	}
	// 100·(1 − c/b) for medians 5% apart is −5%.
	if math.Abs(pl.ImprovementPct+5) > 0.2 || pl.CI[0] > pl.ImprovementPct || pl.CI[1] < pl.ImprovementPct || pl.Verdict != "reference faster" {
		t.Errorf("improvement %.3f%% %v %q, want about -5%%, reference faster", pl.ImprovementPct, pl.CI, pl.Verdict)
	}
	again, _ := analyzeBytes(t, in, DefaultOptions)
	if *again.comparisons[0].Process != *pl {
		t.Error("the process-level interval is not deterministic")
	}
}

func TestProcessLevelLeavesIncompleteBlocksOut(t *testing.T) {
	base := func(int) float64 { return 1000 }
	status := func(b int) string {
		if b == 3 {
			return ndjson.BlockInterrupted
		}
		return ndjson.BlockComplete
	}
	// Block 3's contender is wildly slow; it was interrupted, so it must not count.
	con := func(b int) float64 {
		if b == 3 {
			return 3
		}
		return 1
	}
	res, _ := analyzeBytes(t, blockStream(t, 8, 10, base, con, status), DefaultOptions)
	k := res.comparisons[0]
	if k.Process.Runs != 7 || k.Pairs != 70 || math.Abs(k.ChangePct) > 0.5 {
		t.Errorf("runs %d pairs %d change %.2f%%: the interrupted block must be left out", k.Process.Runs, k.Pairs, k.ChangePct)
	}
	if w := strings.Join(res.analysis[0].Warnings, "\n"); !strings.Contains(w, "10 samples of 1 incomplete process blocks") {
		// 10 per case of the interrupted block: 20 samples in all.
		if !strings.Contains(w, "20 samples of 1 incomplete process blocks") {
			t.Errorf("warnings: %s", w)
		}
	}
}

func TestProcessLevelEvidenceMinimumAndDisagreement(t *testing.T) {
	base := func(int) float64 { return 1000 }
	few, _ := analyzeBytes(t, blockStream(t, 4, 10, base, func(int) float64 { return 1 }, complete), DefaultOptions)
	if pl := few.comparisons[0].Process; pl.Status != ndjson.ProcessInsufficient || !strings.Contains(pl.Reason, "at least 5") {
		t.Errorf("4 blocks: %+v", pl)
	}
	// Each block is decisive inside its process, but the blocks disagree:
	// +6% in blocks 0, 1, 4, 5, ..., -6% in the others (both orientations
	// see both). Pooled within-process, the
	// estimate sits near 0 with a narrow interval; the process level sees
	// the spread.
	swing := func(b int) float64 { return 1 + 0.06*float64(1-2*(b/2%2)) + 0.01*float64(b%3) }
	res, _ := analyzeBytes(t, blockStream(t, 10, 20, base, swing, complete), DefaultOptions)
	k := res.comparisons[0]
	if k.Process.CI[1]-k.Process.CI[0] <= k.ChangeCI[1]-k.ChangeCI[0] {
		t.Errorf("process interval %v should be wider than the within-process %v", k.Process.CI, k.ChangeCI)
	}
}

func TestProcessWarning(t *testing.T) {
	k := &ndjson.Comparison{ChangePct: 1, ChangeCI: [2]float64{0, 2},
		Process: &ndjson.ProcessLevel{Status: ndjson.ProcessOK, Runs: 10, ImprovementPct: -3}}
	if w := processWarning(k); !strings.Contains(w, "(+3.0% time) differs from the within-process one (+1.0%) by more than its half-width (±1.0%)") {
		t.Errorf("warning %q", w)
	}
	k.Process.ImprovementPct = -1.5
	if w := processWarning(k); w != "" {
		t.Errorf("within the half-width: %q", w)
	}
}

func TestProcessLevelAgainstABaseline(t *testing.T) {
	base := func(b int) float64 { return 1000 * (1 + 0.03*math.Sin(float64(b))) }
	old := blockStream(t, 8, 10, base, func(int) float64 { return 1 }, complete)
	// The current run is 10% slower in both cases.
	slower := func(b int) float64 { return 1.1 * base(b+3) }
	cur := blockStream(t, 8, 10, slower, func(int) float64 { return 1 }, complete)
	res, err := analyzeAgainst(t, cur, loadBaseline(t, old))
	must(t, err)
	got := independent(res)
	if len(got) != 2 {
		t.Fatalf("%d baseline comparisons", len(got))
	}
	for _, k := range got {
		pl := k.Process
		if pl == nil || pl.Design != "independent" || pl.Status != ndjson.ProcessOK || pl.Runs != 8 {
			t.Fatalf("%s: process = %+v", k.ContenderName, pl)
		}
		if pl.ImprovementPct > -5 || pl.CI[1] > 0 {
			t.Errorf("%s: improvement %.2f%% %v, want about -10%%", k.ContenderName, pl.ImprovementPct, pl.CI)
		}
	}
}

// TestProcessResamplesSetting: from stats.MinBCaPairs blocks the
// process-level interval is a bootstrap one, drawn with the resamples asked for, and
// records the Monte-Carlo error of its ends; below, the t interval draws
// none.
func TestProcessResamplesSetting(t *testing.T) {
	in := blockStream(t, stats.MinBCaPairs, 4, func(int) float64 { return 1000 }, func(b int) float64 { return 1 + 0.01*float64(b%3) }, complete)
	opt := DefaultOptions
	opt.ProcessResamples = 50_000
	res, _ := analyzeBytes(t, in, opt)
	pl := res.comparisons[0].Process
	if pl.Resamples != 50_000 || pl.Method == stats.RunMethodT || pl.MCError == nil {
		t.Errorf("resamples %d, method %q, Monte-Carlo error %v: want 50000, a bootstrap and its error", pl.Resamples, pl.Method, pl.MCError)
	}
	few, _ := analyzeBytes(t, blockStream(t, 6, 10, func(int) float64 { return 1000 }, func(b int) float64 { return 1 + 0.01*float64(b%3) }, complete), opt)
	if pl := few.comparisons[0].Process; pl.Method != stats.RunMethodT || pl.Resamples != 0 || pl.MCError != nil {
		t.Errorf("6 blocks: %+v, want the t interval", pl)
	}
	opt.ProcessResamples = 10
	if err := opt.Validate(); err == nil || !strings.Contains(err.Error(), "analyze.ProcessResamples 10 out of range") {
		t.Errorf("Validate = %v", err)
	}
}
