package noise

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/schedule"
	"github.com/flybench/flybench/pkg/ndjson"
)

// rawStream is a raw paired run as fb-pair writes it: old takes 100 ns
// per operation and new 90 in every pair.
func rawStream(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	run := &ndjson.Run{RunID: "r-1", Tool: "fb-pair", Design: ndjson.DesignPaired, Batching: "equal-time", Host: host,
		Cases: []ndjson.Case{{Index: 0, Name: "old"}, {Index: 1, Name: "new"}}, Clock: ndjson.Clock{Backend: "fake", NominalNS: 1}}
	run.Config.Samples = n
	write(t, w, run)
	seq := 0
	for u, order := range schedule.Paired(n, 1).Units {
		for pos, c := range order {
			op := 100.0 - 10*float64(c)
			write(t, w, &ndjson.Sample{Case: c, Unit: u, Pos: pos, Seq: seq, Iter: 10, WallNS: int64(op * 10), OpNS: op})
			seq++
		}
	}
	write(t, w, &ndjson.End{RunID: "r-1", Reason: ndjson.EndCompleted, Units: n, Samples: []int{n, n}})
	return buf.Bytes()
}

func TestObserveAnalysesARawStream(t *testing.T) {
	o, err := Observe(bytes.NewReader(rawStream(t, 20)), analyze.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if o.Values[levelOld] != 100 || o.Values[levelTime] != 90 || !near(o.Values[changeTime], -10) || len(o.Values) != 3 {
		t.Errorf("values %v, want old 100, new 90, change -10%%", o.Values)
	}
	if o.Class != ClassOf(host) {
		t.Errorf("class %+v", o.Class)
	}
}

func TestObserveTakesAnAnalysedStreamAsItIs(t *testing.T) {
	// The summary says 150 although the samples say 100: the stream's own
	// analysis (perhaps with other flags) is what counts.
	var buf bytes.Buffer
	buf.Write(rawStream(t, 6))
	w := ndjson.NewWriter(&buf)
	write(t, w, &ndjson.Analysis{RunID: "r-1"})
	write(t, w, &ndjson.Summary{RunID: "r-1", Case: 0, Name: "old", Mean: 150})
	o, err := Observe(&buf, analyze.DefaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	if o.Values[levelOld] != 150 || len(o.Values) != 1 {
		t.Errorf("values %v, want only old's 150 from the stream's summary", o.Values)
	}
}

func TestObserveRefusesAmbiguousCaseNames(t *testing.T) {
	s := inv{oldMean: 1, newMean: 1}.stream(t)
	_, err := Observe(bytes.NewReader(append(append([]byte{}, s...), s...)), analyze.DefaultOptions)
	var se *ndjson.SyntaxError
	if !errors.As(err, &se) || se.Line != 10 || !strings.Contains(se.Msg, "metric time/old appears twice") {
		t.Fatalf("err %v, want line 10: time/old twice", err)
	}
}

func TestObserveRefusesMixedClassesInOneStream(t *testing.T) {
	other := host
	other.CPUs = 4
	s := append(inv{oldMean: 1, newMean: 1}.stream(t), inv{host: other}.stream(t)...)
	_, err := Observe(bytes.NewReader(s), analyze.DefaultOptions)
	var ce *ClassError
	if !errors.As(err, &ce) || ce.Field != "cpus" || !strings.HasPrefix(err.Error(), "run 2 of the stream: host cpus is \"4\"") {
		t.Fatalf("err %v, want run 2's cpus", err)
	}
}

func TestObserveTornStream(t *testing.T) {
	s := inv{oldMean: 1, newMean: 1}.stream(t)
	_, err := Calibrate(t.Context(), config(3, 3, 10), streams(t, s[:len(s)-10]), func(Progress) {})
	if err == nil || !strings.HasPrefix(err.Error(), "invocation 1: line 6: the stream ends mid-record") {
		t.Fatalf("err %v, want the torn line 6 of invocation 1", err)
	}
}
