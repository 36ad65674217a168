package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// A recorder stream's benchmarks join the recording by name, its spans
// keep their wall time and axes, and its tally's extra observations are
// counted as omitted.
func TestRecorderStreamJoinsByName(t *testing.T) {
	r := newTestRecording(keepAll)
	if _, err := serve(r, Header+"\nspan http 10 success\n", false); err != nil {
		t.Fatal(err)
	}
	stream := `{"type":"recording","v":"1.4","run_id":"x","source":"recorder","sample_semantics":"individual_span","benchmarks":[{"index":0,"name":"db"},{"index":1,"name":"http"}],"retention":{"policy":"first","capacity":1},"axes":[{"name":"wall","unit":"ns","status":"collected"},{"name":"thread_cpu","unit":"ns","status":"collected"}]}
{"type":"span","v":"1.4","run_id":"x","b":1,"obs":1,"outcome":"success","start_ns":50,"wall_ns":40,"axes":{"thread_cpu":{"s":"collected","v":30}}}
{"type":"span","v":"1.4","run_id":"x","b":0,"obs":1,"outcome":"failure","start_ns":60,"axes":{"thread_cpu":{"s":"migrated"}}}
{"type":"process","v":"1.4","run_id":"x","at_ns":1,"recorder_cpu_pct":1,"recorder_rss_bytes":1}
{"type":"recording_end","v":"1.4","run_id":"x","reason":"stopped","elapsed_ns":100,"benchmarks":[{"index":0,"observed":3,"retained":1,"omitted":2,"unfinished":1,"outcomes":{"failure":2,"success":1}},{"index":1,"observed":1,"retained":1,"omitted":0,"unfinished":0,"outcomes":{"success":1}}]}
`
	if err := r.serveConn("rec", strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	if got := r.Benches(); len(got) != 2 || got[0].Name != "http" || got[1].Name != "db" {
		t.Fatalf("benchmarks %v", got)
	}
	db := tally(t, r, "db")
	if db.Observed != 3 || db.Retained != 1 || db.Omitted != 2 || db.Unfinished != 1 || db.Outcomes["failure"] != 2 || db.Outcomes["success"] != 1 {
		t.Fatalf("db tally %+v", db)
	}
	row := r.Benches()[1].Rows()[0]
	if row.WallNS != -1 || row.Axes["thread_cpu"].S != "migrated" || row.Outcome != Failure {
		t.Fatalf("db row %+v", row)
	}
	http := r.Benches()[0].Rows()
	if len(http) != 2 || http[1].WallNS != 40 || *http[1].Axes["thread_cpu"].V != 30 {
		t.Fatalf("http rows %+v", http)
	}
	if axes := r.Axes(); len(axes) != 1 || axes[0].Name != "thread_cpu" {
		t.Fatalf("axes %+v", axes)
	}
}

func TestRecorderStreamFaults(t *testing.T) {
	for _, tc := range []struct{ stream, want string }{
		{`{"type":"span","v":"1.4","b":0}` + "\n", "rec:1: a recorder stream must begin with a recording record"},
		{`{"type":"recording","v":"1.4","benchmarks":[{"index":0,"name":"a"}]}` + "\n" + `{"type":"span","v":"1.4","b":3,"outcome":"success"}` + "\n", "rec:2: span of benchmark 3"},
		{`{"type":"recording","v":"1.4","benchmarks":[{"index":0,"name":"a"}]}` + "\n" + `{"type":"span","v":"1.4","b":0,"outcome":"meh"}` + "\n", `rec:2: outcome "meh"`},
		{`{"type":"recording","v":"9.0","benchmarks":[]}` + "\n", "schema version 9.0"},
		{`{"type":"recording",` + "\n", "rec:1: invalid JSON"},
	} {
		r := newTestRecording(keepAll)
		err := r.serveConn("rec", strings.NewReader(tc.stream))
		if err == nil || !strings.Contains(err.Error(), tc.want) || r.ProtocolErrors() != 1 {
			t.Errorf("error %v (%d counted), want %q", err, r.ProtocolErrors(), tc.want)
		}
	}
}

// The hand-written span line is byte for byte what ndjson.Writer writes.
func TestAppendSpanMatchesWriter(t *testing.T) {
	row := Row{Obs: 12, StartNS: -5, WallNS: 987654321, Outcome: Cancelled}
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	if err := w.Write(spanRecord("run-1", 3, row)); err != nil {
		t.Fatal(err)
	}
	got := string(appendSpan(nil, ndjson.Version, "run-1", 3, row)) + "\n"
	if got != buf.String() {
		t.Fatalf("appendSpan\n%s\nWriter\n%s", got, buf.String())
	}
}

func TestWriteIsAValidStream(t *testing.T) {
	r := newTestRecording(Policy{Name: ndjson.RetainReservoir, Capacity: 2, Seed: 3})
	serve(r, Header+"\nspan a 1 success\nspan a 2 success\nspan a 3 failure\nspan b 4 success\nbegin x b\n", false)
	var buf bytes.Buffer
	usage := []ndjson.ProcessUsage{{AtNS: 1e9, RecorderCPU: 3, RecorderRSS: 1 << 20}}
	if err := r.Write(ndjson.NewWriter(&buf), Meta{RunID: "id", Tool: "fb-record"}, usage, ReasonDuration); err != nil {
		t.Fatal(err)
	}
	rd := ndjson.NewReader(&buf, "out")
	var types []string
	var end ndjson.RecordingEnd
	var rec ndjson.Recording
	for {
		l, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, l.Type)
		switch l.Type {
		case ndjson.TypeRecordingEnd:
			err = rd.Decode(l, &end)
		case ndjson.TypeRecording:
			err = rd.Decode(l, &rec)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if strings.Join(types, ",") != "recording,process,span,span,span,recording_end" {
		t.Fatalf("types %v", types)
	}
	if rec.Source != "protocol" || rec.SampleSemantics != "individual_span" || rec.Retention.Seed != 3 || len(rec.Benchmarks) != 2 || rec.Axes[0].Name != "wall" {
		t.Fatalf("recording %+v", rec)
	}
	want := `[{"index":0,"observed":3,"retained":2,"omitted":1,"unfinished":0,"outcomes":{"cancelled":0,"failure":1,"success":2,"timeout":0}},{"index":1,"observed":1,"retained":1,"omitted":0,"unfinished":1,"outcomes":{"cancelled":0,"failure":0,"success":1,"timeout":0}}]`
	if got, _ := json.Marshal(end.Benchmarks); string(got) != want || end.Reason != "duration" {
		t.Fatalf("recording_end %s %s", end.Reason, got)
	}
}
