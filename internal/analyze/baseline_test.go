package analyze

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// runSpec describes a synthetic round-robin run for baseline tests: case
// names, each case's time per operation in unit u, and fingerprint facts.
type runSpec struct {
	id     string
	names  []string
	op     func(c, u int) float64
	kernel string
	tags   map[string]string
	// ref marks the last case as the reference workload.
	ref bool
}

func (s runSpec) stream(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: s.id, Tool: "fb-pair", ToolVersion: "1.0", Mode: "exec", Design: ndjson.DesignRounds,
		Batching: "equal-time", Tags: s.tags, Started: "2026-11-30T10:00:00Z",
		Host:  ndjson.Host{OS: "linux", Kernel: s.kernel, Arch: "amd64", CPUModel: "cpu", CPUs: 2, Governor: "performance", GoVersion: "go1.26"},
		Clock: ndjson.Clock{Backend: "fake", NominalNS: 1}}
	if len(s.names) == 2 {
		run.Design = ndjson.DesignPaired
	}
	for i, name := range s.names {
		c := ndjson.Case{Index: i, Name: name}
		if s.ref && i == len(s.names)-1 {
			c.Role = ndjson.RoleReferenceWorkload
		}
		run.Cases = append(run.Cases, c)
	}
	run.Config.Samples = n
	must(t, w.Write(run))
	seq := 0
	for u := range n {
		for c := range s.names {
			op := s.op(c, u)
			must(t, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: c, Seq: seq, Iter: 10, WallNS: int64(op * 10), OpNS: op}))
			seq++
		}
	}
	counts := make([]int, len(s.names))
	for i := range counts {
		counts[i] = n
	}
	must(t, w.Write(&ndjson.End{RunID: s.id, Reason: ndjson.EndCompleted, Units: n, Samples: counts}))
	return buf.Bytes()
}

// wobble is a deterministic ±1% pattern.
func wobble(u int) float64 { return 1 + 0.01*math.Sin(float64(u)*1.7) }

func loadBaseline(t *testing.T, in []byte, allow ...string) *Baseline {
	t.Helper()
	b, err := LoadBaseline(ndjson.NewReader(bytes.NewReader(in), "base.ndjson"), "base.ndjson", DefaultOptions)
	must(t, err)
	b.Allow = allow
	return b
}

func analyzeAgainst(t *testing.T, cur []byte, b *Baseline) (result, error) {
	t.Helper()
	opt := DefaultOptions
	opt.Baseline = b
	var out bytes.Buffer
	err := Stream(ndjson.NewReader(bytes.NewReader(cur), "cur.ndjson"), ndjson.NewWriter(&out), opt)
	// The output must be a stream fb-report can group into runs.
	g := runs.NewReader(ndjson.NewReader(bytes.NewReader(out.Bytes()), "out"))
	var res result
	for {
		rec, rerr := g.Next()
		if rerr != nil {
			if !strings.Contains(rerr.Error(), "EOF") {
				t.Fatalf("output does not group into runs: %v", rerr)
			}
			break
		}
		switch v := rec.Value.(type) {
		case *ndjson.Analysis:
			res.analysis = append(res.analysis, *v)
		case *ndjson.Comparison:
			res.comparisons = append(res.comparisons, *v)
		}
	}
	return res, err
}

func independent(res result) []ndjson.Comparison {
	var out []ndjson.Comparison
	for _, k := range res.comparisons {
		if k.Design == ndjson.DesignIndependent {
			out = append(out, k)
		}
	}
	return out
}

func TestBaselineComparesCasesByName(t *testing.T) {
	base := runSpec{id: "base", names: []string{"old", "new"}, kernel: "6.1",
		op: func(c, u int) float64 { return 1000 * wobble(u) }}
	// The current run lists the cases the other way round; "new" is 10% slower.
	cur := runSpec{id: "cur", names: []string{"new", "old"}, kernel: "6.1",
		op: func(c, u int) float64 { return 1000 * wobble(u+3) * []float64{1.10, 1}[c] }}
	res, err := analyzeAgainst(t, cur.stream(t, 40), loadBaseline(t, base.stream(t, 40)))
	must(t, err)
	got := independent(res)
	if len(got) != 2 {
		t.Fatalf("%d baseline comparisons, want 2", len(got))
	}
	for _, k := range got {
		if k.ReferenceName != k.ContenderName || k.Normalized {
			t.Errorf("comparison %s against %s, normalized %v", k.ContenderName, k.ReferenceName, k.Normalized)
		}
		want := 0.0
		if k.ContenderName == "new" {
			want = 10
		}
		if math.Abs(k.ChangePct-want) > 1 || k.ChangeCI[0] > k.ChangePct || k.ChangeCI[1] < k.ChangePct {
			t.Errorf("%s: change %.2f%% %v, want about %+.0f%%", k.ContenderName, k.ChangePct, k.ChangeCI, want)
		}
		if k.ContenderName == "new" && (k.Contender != 0 || k.Reference != 1) {
			t.Errorf("new: contender %d reference %d, want this run's case 0 against the baseline's case 1", k.Contender, k.Reference)
		}
	}
	b := res.analysis[0].Baseline
	if b == nil || b.RunID != "base" || b.File != "base.ndjson" || len(b.Allowed) != 0 {
		t.Errorf("analysis baseline = %+v", b)
	}
}

func TestBaselineFingerprintMismatch(t *testing.T) {
	op := func(c, u int) float64 { return 1000 * wobble(u) }
	base := runSpec{id: "base", names: []string{"a", "b"}, kernel: "6.1", tags: map[string]string{"revision": "r1", "cflags": "-O2"}, op: op}
	cur := runSpec{id: "cur", names: []string{"a", "b"}, kernel: "6.18", tags: map[string]string{"revision": "r2", "cflags": "-O2"}, op: op}
	res, err := analyzeAgainst(t, cur.stream(t, 20), loadBaseline(t, base.stream(t, 20)))
	var me *MismatchError
	if !errors.As(err, &me) {
		t.Fatalf("error %v, want a fingerprint mismatch", err)
	}
	if got := me.Fields(); !slices.Equal(got, []string{"host.kernel", "tag.revision"}) {
		t.Errorf("mismatched fields %v", got)
	}
	if len(res.analysis) != 1 || len(independent(res)) != 0 || res.analysis[0].Baseline != nil {
		t.Errorf("a refused comparison must leave the run's own analysis and nothing else: %d analyses, %d baseline comparisons", len(res.analysis), len(independent(res)))
	}
	// Allowing one field is not enough; allowing both lists them.
	if _, err := analyzeAgainst(t, cur.stream(t, 20), loadBaseline(t, base.stream(t, 20), "tag.*")); !errors.As(err, &me) || !slices.Equal(me.Fields(), []string{"host.kernel"}) {
		t.Errorf("with tag.* allowed: %v", err)
	}
	res, err = analyzeAgainst(t, cur.stream(t, 20), loadBaseline(t, base.stream(t, 20), "host.kernel", "tag.revision"))
	must(t, err)
	allowed := res.analysis[0].Baseline.Allowed
	if len(allowed) != 2 || allowed[0] != (ndjson.Mismatch{Field: "host.kernel", Baseline: "6.1", Current: "6.18"}) {
		t.Errorf("allowed = %+v", allowed)
	}
}

func TestBaselineNormalizedScores(t *testing.T) {
	// The current machine is 30% slower overall: the reference workload
	// and the case slow down together, so the scores do not move.
	base := runSpec{id: "base", names: []string{"work", "ref"}, kernel: "6.1", ref: true,
		op: func(c, u int) float64 { return []float64{500, 1000}[c] * wobble(u) }}
	cur := runSpec{id: "cur", names: []string{"work", "ref"}, kernel: "6.1", ref: true,
		op: func(c, u int) float64 { return 1.3 * []float64{500, 1000}[c] * wobble(u) }}
	res, err := analyzeAgainst(t, cur.stream(t, 30), loadBaseline(t, base.stream(t, 30)))
	must(t, err)
	got := independent(res)
	if len(got) != 1 || got[0].ContenderName != "work" || !got[0].Normalized || !res.analysis[0].Baseline.Normalized {
		t.Fatalf("want one normalized comparison of work, got %+v", got)
	}
	if math.Abs(got[0].ChangePct) > 1e-9 {
		t.Errorf("normalized change %.6f%%, want 0: the machine's speed cancels", got[0].ChangePct)
	}
	// Without the reference workload on one side, times are compared.
	base.ref = false
	base.names = []string{"work"}
	res, err = analyzeAgainst(t, cur.stream(t, 30), loadBaseline(t, base.stream(t, 30)))
	must(t, err)
	if got := independent(res); len(got) != 1 || got[0].Normalized || math.Abs(got[0].ChangePct-30) > 1e-6 {
		t.Errorf("time comparison: %+v", got)
	}
}

func TestBaselineUnmatchedCases(t *testing.T) {
	op := func(c, u int) float64 { return 1000 * wobble(u) }
	base := runSpec{id: "base", names: []string{"a", "gone"}, kernel: "6.1", op: op}
	cur := runSpec{id: "cur", names: []string{"a", "added"}, kernel: "6.1", op: op}
	res, err := analyzeAgainst(t, cur.stream(t, 20), loadBaseline(t, base.stream(t, 20)))
	must(t, err)
	if len(independent(res)) != 1 {
		t.Errorf("%d comparisons, want only a", len(independent(res)))
	}
	w := strings.Join(res.analysis[0].Warnings, "\n")
	if !strings.Contains(w, `case "added" has no baseline`) || !strings.Contains(w, `baseline case "gone" is not in this run`) {
		t.Errorf("warnings: %s", w)
	}
	other := runSpec{id: "cur2", names: []string{"x", "y"}, kernel: "6.1", op: op}
	_, err = analyzeAgainst(t, other.stream(t, 20), loadBaseline(t, base.stream(t, 20)))
	var be *BaselineError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), `no run has a case named "x" or "y"`) {
		t.Errorf("no match: %v", err)
	}
}

func TestCheckAllowed(t *testing.T) {
	must(t, CheckAllowed([]string{"host.kernel", "tag.revision", "tag.*", "timer"}))
	if err := CheckAllowed([]string{"kernel"}); err == nil || !strings.Contains(err.Error(), `"kernel" is not a fingerprint field`) {
		t.Errorf("CheckAllowed(kernel) = %v", err)
	}
}
