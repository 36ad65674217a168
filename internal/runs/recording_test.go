package runs

import (
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

const (
	rec1    = `{"type":"recording","v":"1.4","run_id":"q1","benchmarks":[{"index":0,"name":"get"},{"index":1,"name":"put"}]}`
	rec2    = `{"type":"recording","v":"1.4","run_id":"q2","benchmarks":[{"index":0,"name":"get"}]}`
	span1   = `{"type":"span","v":"1.4","run_id":"q1","b":1,"obs":1,"outcome":"success","start_ns":0,"wall_ns":7}`
	proc1   = `{"type":"process","v":"1.4","run_id":"q1","at_ns":5,"recorder_cpu_pct":1,"recorder_rss_bytes":9}`
	recEnd1 = `{"type":"recording_end","v":"1.4","run_id":"q1","reason":"stopped","benchmarks":[{"index":1,"observed":1,"retained":1}]}`
	spanSum = `{"type":"span_summary","v":"1.4","run_id":"q1","b":1,"name":"put"}`
	spanCmp = `{"type":"span_comparison","v":"1.4","reference_run":"q1","contender_run":"q2","name":"get"}`
)

func TestRecordingPlacement(t *testing.T) {
	recs, err := read(run1, sample, end1, rec1, span1, proc1, recEnd1, spanSum, rec2, spanCmp, analysis)
	if err != nil {
		t.Fatal(err)
	}
	r1 := recs[0].Run
	q1, q2 := recs[3].Recording, recs[8].Recording
	for i, want := range []*Recording{nil, nil, nil, q1, q1, q1, q1, q1, q2, q2, nil} {
		if recs[i].Recording != want {
			t.Errorf("record %d (%s) belongs to recording %v, want %v", i, recs[i].Type, recs[i].Recording, want)
		}
	}
	for i := 3; i < 10; i++ {
		if recs[i].Run != nil {
			t.Errorf("record %d (%s) belongs to run %v", i, recs[i].Type, recs[i].Run)
		}
	}
	if recs[10].Run != r1 {
		t.Errorf("the analysis of r1 belongs to %v", recs[10].Run)
	}
	if q1.End == nil || q1.ID() != "q1" || q2.End != nil || q1.Line != 4 {
		t.Errorf("q1 %+v, q2 %+v", q1, q2)
	}
	if s, ok := recs[4].Value.(*ndjson.Span); !ok || s.Benchmark != 1 || *s.WallNS != 7 {
		t.Errorf("span value %#v", recs[4].Value)
	}
	if _, ok := recs[9].Value.(*ndjson.SpanComparison); !ok {
		t.Errorf("span_comparison value %#v", recs[9].Value)
	}
}

// TestRecordingClosesRun: a recording record cuts an open run short and a
// run record an open recording, so spans never land in a run nor samples
// in a recording.
func TestRecordingClosesRun(t *testing.T) {
	recs, err := read(run1, rec1, span1)
	if err != nil || recs[0].Run.End != nil || recs[2].Recording == nil {
		t.Fatalf("%v %+v", err, recs)
	}
	if _, err := read(run1, rec1, sample); err == nil || !strings.Contains(err.Error(), "in:3:") {
		t.Errorf("a sample inside a recording: %v", err)
	}
	if _, err := read(rec1, run1, span1); err == nil || !strings.Contains(err.Error(), "in:3: span record outside a recording") {
		t.Errorf("a span inside a run: %v", err)
	}
}

func TestLastRecording(t *testing.T) {
	g := NewReader(ndjson.NewReader(strings.NewReader(strings.Join([]string{run1, rec1, span1}, "\n")+"\n"), "in"))
	for range 3 {
		if _, err := g.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if g.LastRecording() == nil || g.OpenRecording() == nil || g.Open() != nil {
		t.Errorf("last recording %v, open recording %v, open run %v", g.LastRecording(), g.OpenRecording(), g.Open())
	}
	g = NewReader(ndjson.NewReader(strings.NewReader(rec1+"\n"+run2+"\n"), "in"))
	for range 2 {
		if _, err := g.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if g.LastRecording() != nil || g.OpenRecording() != nil {
		t.Errorf("a run after the recording: last recording %v", g.LastRecording())
	}
}

func TestRecordingErrors(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  string
	}{
		{[]string{`{"type":"recording","v":"1.4","benchmarks":[{"name":"a"}]}`}, "in:1: recording record has no run_id"},
		{[]string{`{"type":"recording","v":"1.4","run_id":"q"}`}, "in:1: recording q lists no benchmarks"},
		{[]string{`{"type":"recording","v":"1.4","run_id":"q","benchmarks":[{"index":1,"name":"a"}]}`}, "benchmark 0 has index 1"},
		{[]string{span1}, "in:1: span record before any recording record"},
		{[]string{rec1, recEnd1, span1}, "in:3: span record outside a recording"},
		{[]string{rec1, recEnd1, recEnd1}, "in:3: second recording_end record for recording q1"},
		{[]string{rec2, `{"type":"span","v":"1.4","b":1,"obs":1,"outcome":"success"}`}, "in:2: span record for benchmark 1, but recording q2 has 1 benchmarks"},
		{[]string{rec2, `{"type":"span","v":"1.4","b":0,"obs":0,"outcome":"success"}`}, "observations count from 1"},
		{[]string{rec2, `{"type":"span","v":"1.4","b":0,"obs":1,"outcome":"ok"}`}, `outcome "ok"`},
		{[]string{rec2, `{"type":"span","v":"1.4","b":0,"obs":1,"outcome":"success","wall_ns":-1}`}, "negative wall_ns"},
		{[]string{rec2, span1}, "in:2: span record for recording q1 inside recording q2"},
		{[]string{rec2, `{"type":"recording_end","v":"1.4","benchmarks":[{"index":3}]}`}, "recording_end record for benchmark 3"},
		{[]string{spanSum}, "in:1: span_summary record with run_id q1, which no recording record before it opened"},
		{[]string{rec1, spanSum, spanSum}, "in:3: second span_summary for benchmark 1 of recording q1"},
		{[]string{rec2, spanCmp}, "span_comparison record with reference_run q1, which no recording"},
		{[]string{rec1, rec2, spanCmp, spanCmp}, `in:4: second span_comparison of "get" in recording q2 with recording q1`},
		{[]string{rec1, rec2, `{"type":"span_comparison","v":"1.4","reference_run":"q1","contender_run":"q2"}`}, "has no benchmark name"},
	} {
		_, err := read(tc.lines...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.lines, err, tc.want)
		}
	}
}
