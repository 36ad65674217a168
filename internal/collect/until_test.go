package collect

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// scriptedJudge answers each look with the next verdict and half-width,
// and records what it was asked.
type scriptedJudge struct {
	verdicts []ndjson.Verdict
	widths   []float64
	asked    []int     // kept samples at each look
	levels   []float64 // confidence of each look
}

func (j *scriptedJudge) judge(_ *ndjson.Run, kept []ndjson.Sample, confidence float64) ([]ndjson.LookInterval, error) {
	i := min(len(j.asked), len(j.verdicts)-1)
	j.asked, j.levels = append(j.asked, len(kept)), append(j.levels, confidence)
	return []ndjson.LookInterval{{Contender: 1, HalfWidthPct: j.widths[i], Verdict: j.verdicts[i]}}, nil
}

// untilEngine compares two 1 ms operations under rule, with a 10 s
// budget: the automatic sample count sizes batches for 1000 pairs in it,
// 5 ms each.
func untilEngine(rule string, width float64, j *scriptedJudge) (*Engine, *bytes.Buffer) {
	clk := &fakeClock{}
	cfg := fixedConfig
	cfg.Until = Until{Rule: rule, WidthPct: width, MaxTime: 10 * time.Second, Confidence: 95}
	e, buf := autoEngine(cfg, &fakeOp{clk: clk, perOp: 1_000_000}, &fakeOp{clk: clk, perOp: 1_000_000})
	e.Judge = j.judge
	return e, buf
}

func TestUntilDecisionSettles(t *testing.T) {
	j := &scriptedJudge{verdicts: []ndjson.Verdict{"inconclusive", "reference faster"}, widths: []float64{3, 2}}
	e, buf := untilEngine("decision", 0, j)
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	if len(s.looks) != 2 || !s.looks[1].Met || s.looks[0].Met {
		t.Fatalf("looks %+v: want the second to meet the rule", s.looks)
	}
	// Looks at whole blocks of 10 pairs, the first at 1/32 of 10 s
	// (each pair takes 2 ms): about 160 pairs, the next at 1/16.
	for i, l := range s.looks {
		if l.Units%10 != 0 || !l.Spent || l.Units != j.asked[i]/2 {
			t.Errorf("look %d at %d units (judge saw %d samples), spent %v", i, l.Units, j.asked[i], l.Spent)
		}
	}
	if f := s.looks[0].Fraction; f < 1.0/32 || f > 1.0/32+0.01 {
		t.Errorf("first look at fraction %.4f, want just past 1/32", f)
	}
	if f := s.looks[1].Fraction; f < 1.0/16 || f > 1.0/16+0.01 {
		t.Errorf("second look at fraction %.4f, want just past 1/16", f)
	}
	// Linear spending: 5% over the elapsed share.
	for i, l := range s.looks {
		prev := 0.0
		if i > 0 {
			prev = s.looks[i-1].Fraction
		}
		want := 100 - 5*(l.Fraction-prev)
		if d := l.ConfidencePct - want; d > 1e-6 || d < -1e-6 || j.levels[i] != l.ConfidencePct {
			t.Errorf("look %d confidence %v (judge %v), want %v", i, l.ConfidencePct, j.levels[i], want)
		}
	}
	u := end.Until
	if u == nil || !u.Settled || u.Reason != "settled" || u.Looks != 2 || end.Reason != ndjson.EndCompleted || u.Units != end.Units {
		t.Fatalf("end %+v until %+v: want settled after 2 looks", end, u)
	}
	if end.Units != s.looks[1].Units || len(s.samples) != 2*end.Units {
		t.Errorf("%d units, %d samples: the run must stop at the look that settled (%d units)", end.Units, len(s.samples), s.looks[1].Units)
	}
	ref := 0
	for _, smp := range s.samples {
		if smp.Case == 0 && smp.Pos == 0 {
			ref++
		}
	}
	if 2*ref != end.Units {
		t.Errorf("%d of %d pairs reference-first: a run stopped at a look must be order-balanced", ref, end.Units)
	}
}

func TestUntilDecisionHitsTheLimit(t *testing.T) {
	j := &scriptedJudge{verdicts: []ndjson.Verdict{"inconclusive"}, widths: []float64{3}}
	e, buf := untilEngine("decision", 0, j)
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	last := s.looks[len(s.looks)-1]
	if !last.Final || last.Met || last.Fraction != 1 && last.Fraction < 0.999 {
		t.Fatalf("last look %+v: want the final one, at the limit", last)
	}
	// Intermediate looks at 1/32 .. 1/2; the final spends the rest: about 97.5%.
	if n := len(s.looks); n != 6 {
		t.Errorf("%d looks, want 5 at 1/32..1/2 and the final one", n)
	}
	prev := s.looks[len(s.looks)-2].Fraction
	if want := 100 - 5*(1-prev); last.ConfidencePct < want-1e-6 || last.ConfidencePct > want+1e-6 {
		t.Errorf("final look at %v%%, want %v%%: everything left", last.ConfidencePct, want)
	}
	u := end.Until
	if u == nil || u.Settled || u.Reason != "time" || end.Reason != ndjson.EndBudget || u.ConfidencePct != last.ConfidencePct {
		t.Fatalf("end %+v until %+v: want the time limit", end, u)
	}
	if e := end.ElapsedNS; e < int64(10*time.Second) || e > int64(10*time.Second)+int64(5*time.Millisecond) {
		t.Errorf("elapsed %v: the budget is the whole run's, 10 s", time.Duration(e))
	}
}

func TestUntilWidthLooksOftenWithoutSpending(t *testing.T) {
	j := &scriptedJudge{verdicts: []ndjson.Verdict{"", "", "", ""}, widths: []float64{3, 2, 1.5, 0.9}}
	e, buf := untilEngine("width", 1, j)
	end, err := e.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := readStream(t, buf.Bytes())
	if len(s.looks) != 4 || !end.Until.Settled {
		t.Fatalf("%d looks, until %+v: want settled at the fourth", len(s.looks), end.Until)
	}
	for i, l := range s.looks {
		if l.ConfidencePct != 95 {
			t.Errorf("look %d at %v%%: a width rule spends nothing", i, l.ConfidencePct)
		}
		if i > 0 && float64(l.Units) < 1.25*float64(s.looks[i-1].Units) {
			t.Errorf("look %d at %d units after %d: want 25%% growth", i, l.Units, s.looks[i-1].Units)
		}
	}
	if s.looks[0].Units != 20 {
		t.Errorf("first width look at %d units, want 20", s.looks[0].Units)
	}
}

func TestUntilValidation(t *testing.T) {
	cases := []struct {
		u          Until
		k          int
		sequential bool
		want       string
	}{
		{Until{Rule: "decision", MaxTime: time.Second, Confidence: 95}, 1, false, "needs 2 or more"},
		{Until{Rule: "width", WidthPct: 1, MaxTime: time.Second, Confidence: 95}, 2, true, "cannot be combined with Sequential"},
		{Until{Rule: "width", WidthPct: 1, Confidence: 95}, 2, false, "Until.MaxTime 0s must be positive with Until.Rule"},
		{Until{Rule: "decision", MaxTime: time.Second, Confidence: 100}, 2, false, "Until.Confidence 100 out of range"},
	}
	for _, c := range cases {
		if err := c.u.Validate(c.k, c.sequential); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v k=%d: error %v, want %q", c.u, c.k, err, c.want)
		}
	}
	for in, want := range map[string]string{"decision": "decision", "width=1%": "width", "width=0.5": "width"} {
		if rule, _, err := ParseUntil(in); err != nil || rule != want {
			t.Errorf("ParseUntil(%q) = %q, %v", in, rule, err)
		}
	}
	for _, in := range []string{"width=0%", "width=x", "soon", "width=100"} {
		if _, _, err := ParseUntil(in); err == nil {
			t.Errorf("ParseUntil(%q) accepted", in)
		}
	}
}
