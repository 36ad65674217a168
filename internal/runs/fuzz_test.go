package runs_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/recfixture"
	"github.com/flybench/flybench/internal/report"
	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// seedStreams are small streams of the shapes the tools meet: a paired
// run, a run cut short, two runs, the same run twice, host records, an
// analysed stream, a torn last line, a recording, two recordings after a
// run, analysed.
func seedStreams(f *testing.F) [][]byte {
	f.Helper()
	var paired bytes.Buffer
	w := ndjson.NewWriter(&paired)
	must(f, w.Write(&ndjson.Lock{Outcome: ndjson.LockHeld}))
	must(f, w.Write(&ndjson.Run{RunID: "p", Design: ndjson.DesignPaired, Cases: []ndjson.Case{{Name: "a"}, {Index: 1, Name: "b"}}}))
	must(f, w.Write(&ndjson.Calibration{Case: 1, Iterations: 2}))
	must(f, w.Write(&ndjson.Window{Units: 3, Samples: 6, Action: ndjson.ActionKept}))
	for u := 0; u < 3; u++ {
		for c := 0; c < 2; c++ {
			op := float64(100 + 7*u + 3*c)
			must(f, w.Write(&ndjson.Sample{Case: c, Unit: u, Pos: (c + u) % 2, Seq: 2*u + c, Iter: 2, WallNS: int64(2 * op), OpNS: op}))
		}
	}
	cut := paired.Len()
	must(f, w.Write(&ndjson.End{RunID: "p", Reason: ndjson.EndCompleted, Units: 3, Samples: []int{3, 3}}))
	raw := paired.Bytes()
	var analyzed bytes.Buffer
	must(f, analyze.Stream(ndjson.NewReader(bytes.NewReader(raw), "seed"), ndjson.NewWriter(&analyzed), options()))
	single := `{"type":"run","v":"1.3","run_id":"s","cases":[{"name":"x"}]}` + "\n" +
		`{"type":"sample","v":"1.3","case":0,"unit":0,"pos":0,"seq":0,"iter":1,"wall_ns":5,"op_ns":5}` + "\n"
	var rec bytes.Buffer
	w = ndjson.NewWriter(&rec)
	for _, id := range []string{"q1", "q2"} {
		for _, r := range recfixture.Recording(id, recfixture.Sizes{25, 4, 2}, 1.2, 1) {
			must(f, w.Write(r))
		}
	}
	must(f, w.Flush())
	var recAnalyzed bytes.Buffer
	mixed := append(append([]byte{}, raw...), rec.Bytes()...)
	must(f, analyze.Stream(ndjson.NewReader(bytes.NewReader(mixed), "seed"), ndjson.NewWriter(&recAnalyzed), options()))
	return [][]byte{
		rec.Bytes(), recAnalyzed.Bytes(), recAnalyzed.Bytes()[:recAnalyzed.Len()-30],
		raw, raw[:cut], raw[:len(raw)-9], append(append([]byte{}, raw...), raw...),
		analyzed.Bytes(), append(append([]byte{}, analyzed.Bytes()...), raw...),
		analyzed.Bytes()[:analyzed.Len()-20], []byte(single), []byte(single + single),
	}
}

func must(f *testing.F, err error) {
	f.Helper()
	if err != nil {
		f.Fatal(err)
	}
}

func options() analyze.Options {
	opt := analyze.DefaultOptions
	opt.Resamples = 100
	return opt
}

// FuzzPipeline: whatever fb-analyze accepts, fb-report reads back with
// one analysed run per run record, and the reader of runs never panics
// and reports every failure at its line.
func FuzzPipeline(f *testing.F) {
	for _, s := range seedStreams(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkGrouping(t, data)
		var out bytes.Buffer
		err := analyze.Stream(ndjson.NewReader(bytes.NewReader(data), "in"), ndjson.NewWriter(&out), options())
		if err != nil {
			return
		}
		got, err := report.Load(ndjson.NewReader(bytes.NewReader(out.Bytes()), "out"))
		if err != nil {
			t.Fatalf("fb-report refuses what fb-analyze wrote: %v\ninput:\n%s\noutput:\n%s", err, data, out.Bytes())
		}
		if n := strings.Count(out.String(), `{"type":"run",`); len(got) != n {
			t.Fatalf("%d runs loaded from %d run records", len(got), n)
		}
		for _, r := range got {
			if r.Analysis == nil {
				t.Fatalf("run %s of fb-analyze's output has no analysis:\n%s", r.Run.RunID, out.Bytes())
			}
		}
	})
}

// checkGrouping reads data through the reader of runs: every error is
// positioned, and every record it places is in a run.
func checkGrouping(t *testing.T, data []byte) {
	g := runs.NewReader(ndjson.NewReader(bytes.NewReader(data), "in"))
	for {
		rec, err := g.Next()
		if errors.Is(err, io.EOF) {
			return
		}
		var se *ndjson.SyntaxError
		var ve *ndjson.VersionError
		if err != nil {
			if !errors.As(err, &se) && !errors.As(err, &ve) {
				t.Fatalf("unpositioned error %T: %v", err, err)
			}
			return
		}
		if recordingType(rec.Type) != (rec.Recording != nil) || rec.Recording != nil && (rec.Value == nil || rec.Run != nil) {
			t.Fatalf("line %d (%s): recording %v, run %v, value %T", rec.No, rec.Type, rec.Recording, rec.Run, rec.Value)
		}
		if rec.Recording != nil {
			continue
		}
		known := ndjson.Known(rec.Type)
		host := rec.Type == ndjson.TypeLock || rec.Type == ndjson.TypeGate
		if known != (rec.Value != nil) || (known && !host) != (rec.Run != nil) {
			t.Fatalf("line %d (%s): run %v, value %T", rec.No, rec.Type, rec.Run, rec.Value)
		}
	}
}

// recordingType reports whether records of type typ belong to a
// recording.
func recordingType(typ string) bool {
	switch typ {
	case ndjson.TypeRecording, ndjson.TypeSpan, ndjson.TypeProcess, ndjson.TypeRecordingEnd,
		ndjson.TypeSpanSummary, ndjson.TypeSpanComparison:
		return true
	}
	return false
}
