package runs

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

const (
	run1     = `{"type":"run","v":"1.3","run_id":"r1","cases":[{"index":0,"name":"a"},{"index":1,"name":"b"}]}`
	run2     = `{"type":"run","v":"1.3","run_id":"r2","cases":[{"index":0,"name":"c"}]}`
	sample   = `{"type":"sample","v":"1.3","case":1,"unit":0,"pos":0,"seq":0,"iter":1,"wall_ns":9,"op_ns":9}`
	end1     = `{"type":"end","v":"1.3","run_id":"r1","reason":"completed"}`
	analysis = `{"type":"analysis","v":"1.3","run_id":"r1","seed":1}`
	summary  = `{"type":"summary","v":"1.3","run_id":"r1","case":1}`
	lock     = `{"type":"lock","v":"1.3","outcome":"held"}`
	gate     = `{"type":"gate","v":"1.3","outcome":"passed"}`
	window   = `{"type":"window","v":"1.3","index":0}`
	look     = `{"type":"look","v":"1.3","run_id":"r1","index":0}`
	note     = `{"type":"note","v":"1.3"}`
)

// read groups lines and returns every record, or the first error.
func read(lines ...string) ([]Record, error) {
	g := NewReader(ndjson.NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), "in"))
	var recs []Record
	for {
		rec, err := g.Next()
		if errors.Is(err, io.EOF) {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
}

func TestPlacement(t *testing.T) {
	recs, err := read(lock, gate, run1, window, sample, look, end1, note, analysis, summary, gate, run2,
		`{"type":"environment","v":"1.3","run_id":"r1"}`)
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := recs[2].Run, recs[11].Run
	for i, want := range []*Run{nil, nil, r1, r1, r1, r1, r1, nil, r1, r1, nil, r2, r1} {
		if recs[i].Run != want {
			t.Errorf("record %d (%s) belongs to %v, want %v", i, recs[i].Type, recs[i].Run, want)
		}
	}
	if r1.Lock == nil || r1.Gate == nil || r1.End == nil || r2.Lock != nil || r2.Gate == nil || r2.End != nil {
		t.Errorf("r1 %+v, r2 %+v", r1, r2)
	}
	if s, ok := recs[4].Value.(*ndjson.Sample); !ok || s.Case != 1 || s.OpNS != 9 {
		t.Errorf("sample value %#v", recs[4].Value)
	}
	if recs[7].Value != nil {
		t.Errorf("an unknown record has the value %#v", recs[7].Value)
	}
}

// TestRepeatedRun: each run record with a run_id seen before begins a run
// of its own, and analysis records belong to the latest.
func TestRepeatedRun(t *testing.T) {
	recs, err := read(run1, end1, analysis, summary, run1, sample, end1, analysis, summary)
	if err != nil {
		t.Fatal(err)
	}
	first, second := recs[0].Run, recs[4].Run
	if first == second || first.Seen != 1 || second.Seen != 2 {
		t.Fatalf("runs %+v and %+v", first, second)
	}
	if recs[2].Run != first || recs[3].Run != first || recs[7].Run != second || recs[8].Run != second {
		t.Fatal("analysis records not with the run before them")
	}
}

func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"sample first", []string{sample}, "in:1: sample record before any run record"},
		{"calibration first", []string{`{"type":"calibration","v":"1.3","case":0}`}, "in:1: calibration record before any run record"},
		{"window after end", []string{run1, end1, window}, "in:3: window record after the end record of run r1"},
		{"second end", []string{run1, end1, end1}, "in:3: second end record for run r1"},
		{"foreign end", []string{run1, run2, end1}, "in:3: end record for run r1 inside run r2"},
		{"foreign look", []string{run2, look}, "in:2: look record for run r1 inside run r2"},
		{"run without id", []string{`{"type":"run","v":"1.3","cases":[{}]}`}, "in:1: run record has no run_id"},
		{"run without cases", []string{`{"type":"run","v":"1.3","run_id":"x"}`}, "in:1: run x lists no cases"},
		{"case", []string{run2, sample}, "in:2: sample record for case 1, but run r2 has 1 cases (0 to 0)"},
		{"negative unit", []string{run1, strings.Replace(sample, `"unit":0`, `"unit":-1`, 1)}, "in:2: sample with unit -1 and position 0"},
		{"no iterations", []string{run1, strings.Replace(sample, `"iter":1`, `"iter":0`, 1)}, "in:2: sample with 0 iterations"},
		{"calibration case", []string{run2, `{"type":"calibration","v":"1.3","case":3}`}, "in:2: calibration record for case 3"},
		{"analysis of nothing", []string{run2, analysis}, "in:2: analysis record for run r1, which no run record in the stream opened"},
		{"analysis without id", []string{run1, `{"type":"analysis","v":"1.3"}`}, "in:2: analysis record has no run_id"},
		{"second analysis", []string{run1, analysis, analysis}, "in:3: second analysis record for run r1"},
		{"second summary", []string{run1, summary, summary}, "in:3: second summary for case 1 of run r1"},
		{"second comparison", []string{run1, `{"type":"comparison","v":"1.3","run_id":"r1","contender":1}`,
			`{"type":"comparison","v":"1.3","run_id":"r1","contender":1}`}, "in:3: second comparison of case 1 with case 0 in run r1"},
		{"comparison case", []string{run1, `{"type":"comparison","v":"1.3","run_id":"r1","contender":2}`}, "in:2: comparison record for case 2"},
		{"bad lock", []string{`{"type":"lock","v":"1.3","waited_ns":"x"}`}, "in:1: bad lock record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(tc.lines...)
			var se *ndjson.SyntaxError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a syntax error containing %q", err, tc.want)
			}
		})
	}
}

// TestTornTail: the reader's torn error comes through, and Last is the
// run it follows.
func TestTornTail(t *testing.T) {
	g := NewReader(ndjson.NewReader(strings.NewReader(run1+"\n"+sample[:30]), "in"))
	if _, err := g.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := g.Next()
	var torn *ndjson.TornError
	if !errors.As(err, &torn) || torn.Line != 2 || g.Last() == nil || g.Open() != g.Last() {
		t.Fatalf("%v; last %v", err, g.Last())
	}
}
