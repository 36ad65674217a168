package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

const (
	lineRun     = `{"type":"run","v":"1.0","run_id":"r1","tool":"fb-pair","design":"paired","cases":[{"index":0,"name":"a"},{"index":1,"name":"b"}]}`
	lineRun2    = `{"type":"run","v":"1.0","run_id":"r2","tool":"fb-sample","design":"single","cases":[{"index":0,"name":"c"}]}`
	lineSample0 = `{"type":"sample","v":"1.0","case":0,"unit":0,"pos":0,"seq":0,"iter":1,"wall_ns":100,"op_ns":100}`
	lineSample1 = `{"type":"sample","v":"1.0","case":1,"unit":0,"pos":1,"seq":1,"iter":1,"wall_ns":90,"op_ns":90}`
	lineEnd     = `{"type":"end","v":"1.0","run_id":"r1","reason":"completed","units":1}`
	lineAnalyze = `{"type":"analysis","v":"1.0","run_id":"r1","confidence_pct":95,"threshold_pct":1}`
	lineSummary = `{"type":"summary","v":"1.0","run_id":"r1","case":0,"name":"a","n":1,"median_ns":100}`
	lineCompare = `{"type":"comparison","v":"1.0","run_id":"r1","reference":0,"contender":1,"verdict":"inconclusive"}`
	lineLock    = `{"type":"lock","v":"1.2","tool":"fb-lock","outcome":"held","scope":"machine"}`
	lineGate    = `{"type":"gate","v":"1.2","outcome":"passed","polls":3}`
	lineWindow  = `{"type":"window","v":"1.2","index":0,"units":1,"samples":2,"verdict":"clean","action":"kept"}`
	lineEnviron = `{"type":"environment","v":"1.2","run_id":"r1","windows":1,"lock":"held","gate":"passed"}`
)

func load(input string) ([]*Run, error) {
	s, err := Load(ndjson.NewReader(strings.NewReader(input), "in.ndjson"), KeepAll)
	if err != nil {
		return nil, err
	}
	return s.Runs, nil
}

func lines(l ...string) string { return strings.Join(l, "\n") + "\n" }

func TestLoadGroupsRecordsByRun(t *testing.T) {
	runs, err := load(lines(lineRun, lineSample0, lineSample1,
		`{"type":"window","v":"1.2","index":0,"units":1,"samples":2,"verdict":"clean","action":"kept"}`, lineEnd,
		lineRun2, `{"type":"calibration","v":"1.0","case":0,"iterations":8}`, lineSample0,
		lineAnalyze, lineSummary, lineCompare, `{"type":"lock","v":"1.1","outcome":"acquired"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	r1, r2 := runs[0], runs[1]
	if r1.Samples.Len() != 2 || r1.End == nil || r1.Analysis == nil ||
		len(r1.Summaries) != 1 || len(r1.Comparisons) != 1 || len(r1.Windows) != 1 {
		t.Errorf("run r1 = %+v", r1)
	}
	if r2.Samples.Len() != 1 || len(r2.Calibrations) != 1 || r2.End != nil || r2.Analysis != nil ||
		r2.Lock != nil || len(r2.Windows) != 0 {
		t.Errorf("run r2 = %+v", r2)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"bad json", lines(lineRun, `{"type":"sample","v":"1.0","case":0,`), "in.ndjson:2: invalid JSON"},
		{"bad field", lines(lineRun, `{"type":"sample","v":"1.0","case":"zero"}`), "in.ndjson:2: bad sample record"},
		{"version", lines(`{"type":"run","v":"2.0","run_id":"r1"}`), "in.ndjson:1: stream schema version 2.0 is not supported"},
		{"sample first", lines(lineSample0, lineRun), "in.ndjson:1: sample record before any run record"},
		{"end first", lines(lineEnd), "in.ndjson:1: end record before any run record"},
		{"summary unknown run", lines(lineRun, `{"type":"summary","v":"1.0","run_id":"zz","case":0}`),
			"in.ndjson:2: summary record for run zz, which no run record in the stream opened"},
		{"comparison no run id", lines(lineRun, `{"type":"comparison","v":"1.0","contender":1}`),
			"in.ndjson:2: comparison record has no run_id"},
		{"case out of range", lines(lineRun, lineSample0, `{"type":"sample","v":"1.0","case":2}`),
			"in.ndjson:3: sample record for case 2, but run r1 has 2 cases"},
		{"contender out of range", lines(lineRun, `{"type":"comparison","v":"1.0","run_id":"r1","contender":7}`),
			"in.ndjson:2: comparison record for case 7"},
		{"analysis after end of another", lines(lineRun, lineEnd, lineSample0), "in.ndjson:3: sample record after the end record of run r1"},
		{"second analysis of a repeated run", lines(lineRun, lineAnalyze, lineRun, lineAnalyze, lineAnalyze),
			"in.ndjson:5: second analysis record for run r1"},
		{"run without id", lines(`{"type":"run","v":"1.0","cases":[{"name":"a"}]}`), "in.ndjson:1: run record has no run_id"},
		{"run without cases", lines(`{"type":"run","v":"1.0","run_id":"r1"}`), "in.ndjson:1: run r1 lists no cases"},
		{"foreign end", lines(lineRun, lineRun2, lineEnd), "in.ndjson:3: end record for run r1 inside run r2"},
		{"second end", lines(lineRun, lineEnd, lineEnd), "in.ndjson:3: second end record for run r1"},
		{"second analysis", lines(lineRun, lineAnalyze, lineAnalyze), "in.ndjson:3: second analysis record for run r1"},
		{"second summary", lines(lineRun, lineSummary, lineSummary), "in.ndjson:3: second summary for case 0 of run r1"},
		{"window first", lines(lineWindow, lineRun), "in.ndjson:1: window record before any run record"},
		{"bad window", lines(lineRun, `{"type":"window","v":"1.2","units":"five"}`), "in.ndjson:2: bad window record"},
		{"bad lock", lines(`{"type":"lock","v":"1.2","waited_ns":"long"}`, lineRun), "in.ndjson:1: bad lock record"},
		{"environment unknown run", lines(lineRun, `{"type":"environment","v":"1.2","run_id":"zz"}`),
			"in.ndjson:2: environment record for run zz, which no run record in the stream opened"},
		{"environment no run id", lines(lineRun, `{"type":"environment","v":"1.2"}`),
			"in.ndjson:2: environment record has no run_id"},
		{"second environment", lines(lineRun, lineEnviron, lineEnviron), "in.ndjson:3: second environment record for run r1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runs, err := load(tc.input)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			var se *ndjson.SyntaxError
			var ve *ndjson.VersionError
			if !errors.As(err, &se) && !errors.As(err, &ve) {
				t.Errorf("error %T is neither a SyntaxError nor a VersionError", err)
			}
			if runs != nil {
				t.Errorf("a failed load returned %d runs", len(runs))
			}
		})
	}
}

// TestLoadRepeatedRun: a run_id on two run records gives two runs, each
// with the analysis that follows it (the same run analysed twice).
func TestLoadRepeatedRun(t *testing.T) {
	seven := strings.Replace(lineAnalyze, `"confidence_pct":95`, `"confidence_pct":90,"seed":7`, 1)
	runs, err := load(lines(lineRun, lineSample0, lineEnd, lineAnalyze, lineSummary,
		lineRun, lineSample0, lineEnd, seven, lineSummary))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	a, b := runs[0], runs[1]
	if a.Analysis == nil || b.Analysis == nil || a.Analysis.Seed != 0 || b.Analysis.Seed != 7 ||
		len(a.Summaries) != 1 || len(b.Summaries) != 1 || a.Samples.Len() != 1 || b.Samples.Len() != 1 {
		t.Fatalf("runs %+v and %+v", a, b)
	}
}

// TestLoadTornTail: a last line cut short ends the stream with a warning
// on the last run; the same line with its newline is an error.
func TestLoadTornTail(t *testing.T) {
	in := lines(lineRun, lineEnd, lineAnalyze) + lineSummary[:20]
	runs, err := load(in)
	if err != nil || len(runs) != 1 {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	want := "stream ends mid-record at line 4; the partial record was ignored"
	if w := runs[0].Warnings(); len(w) != 1 || w[0] != want {
		t.Fatalf("warnings %q, want %q", w, want)
	}
	if s, _ := Load(ndjson.NewReader(strings.NewReader(in), "in.ndjson"), KeepAll); s.Torn != want {
		t.Errorf("stream torn %q, want %q", s.Torn, want)
	}
	if _, err := load(in + "\n"); err == nil || !strings.Contains(err.Error(), "in.ndjson:4: invalid JSON") {
		t.Fatalf("torn line with its newline: %v", err)
	}
}

func TestLoadEmpty(t *testing.T) {
	runs, err := load("\n\n")
	if err != nil || len(runs) != 0 {
		t.Fatalf("empty stream: %v, %v", runs, err)
	}
}

// TestLoadHostRecords attaches lock and gate records to the run after
// them, windows to the run around them and the environment by run id.
func TestLoadHostRecords(t *testing.T) {
	runs, err := load(lines(lineLock, lineGate, lineRun, lineWindow, lineSample0, lineSample1, lineWindow, lineEnd,
		lineGate, lineRun2, lineAnalyze, lineEnviron, lineLock))
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := runs[0], runs[1]
	if r1.Lock == nil || r1.Lock.Outcome != ndjson.LockHeld || r1.Gate == nil || len(r1.Windows) != 2 {
		t.Errorf("run r1 host records: lock %+v, gate %+v, %d windows", r1.Lock, r1.Gate, len(r1.Windows))
	}
	if r1.Environment == nil || r1.Environment.Windows != 1 || r1.Environment.Lock != ndjson.LockHeld {
		t.Errorf("run r1 environment = %+v", r1.Environment)
	}
	if r2.Lock != nil || r2.Gate == nil || r2.Gate.Polls != 3 || len(r2.Windows) != 0 || r2.Environment != nil {
		t.Errorf("run r2 takes only the gate before it: lock %+v, gate %+v, %d windows, environment %+v",
			r2.Lock, r2.Gate, len(r2.Windows), r2.Environment)
	}
}
