package runs_test

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/report"
	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// seedStreams are small streams of the shapes the tools meet, at most
// maxInput bytes: a paired run, a run cut short, two runs, the same run
// twice, host records, an analysed stream (its long texts shortened), a
// torn last line, two recordings, two recordings after a run, two
// recordings analysed.
func seedStreams(f testing.TB) [][]byte {
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
	for i, id := range []string{"q1", "q2"} {
		for _, r := range tinyRecording(id, int64(100+10*i)) {
			must(f, w.Write(r))
		}
	}
	must(f, w.Flush())
	var recAnalyzed bytes.Buffer
	must(f, analyze.Stream(ndjson.NewReader(bytes.NewReader(rec.Bytes()), "seed"), ndjson.NewWriter(&recAnalyzed), options()))
	mixed := append(append([]byte{}, raw...), rec.Bytes()...)
	an, ran := shorten(analyzed.Bytes()), shorten(recAnalyzed.Bytes())
	seeds := [][]byte{
		rec.Bytes(), mixed, ran, ran[:len(ran)-30],
		raw, raw[:cut], raw[:len(raw)-9], append(append([]byte{}, raw...), raw...),
		an, append(append([]byte{}, an...), raw...),
		an[:len(an)-20], []byte(single), []byte(single + single),
	}
	return seeds
}

// tinyRecording is a recording of two benchmarks, a few spans with wall
// time and an axis (one without a value), and its end.
func tinyRecording(id string, wall int64) []ndjson.Record {
	recs := []ndjson.Record{&ndjson.Recording{RunID: id, Source: "recorder", SampleSemantics: ndjson.SampleSemanticsIndividualSpan,
		Benchmarks: []ndjson.RecordingBenchmark{{Name: "a"}, {Index: 1, Name: "b"}},
		Retention:  ndjson.Retention{Policy: ndjson.RetainFirst, Capacity: 4},
		Axes:       []ndjson.AxisInfo{{Name: "wall", Unit: "ns", Status: "collected"}, {Name: "cpu", Unit: "ns", Status: "collected"}}}}
	for i := range 5 {
		w := wall + int64(7*i)
		s := &ndjson.Span{RunID: id, Benchmark: i % 2, Obs: int64(i/2 + 1), Outcome: ndjson.OutcomeSuccess, StartNS: int64(100 * i), WallNS: &w,
			Axes: map[string]ndjson.AxisValue{"cpu": ndjson.Collected(float64(w / 2))}}
		if i == 4 {
			s.Outcome, s.Axes = ndjson.OutcomeFailure, map[string]ndjson.AxisValue{"cpu": {S: "unattributable"}}
		}
		recs = append(recs, s)
	}
	return append(recs, &ndjson.RecordingEnd{RunID: id, Reason: "stopped", Benchmarks: []ndjson.BenchmarkTally{
		{Observed: 4, Retained: 3, Omitted: 1, Outcomes: map[string]int64{"success": 2, "failure": 2}},
		{Index: 1, Observed: 2, Retained: 2, Unfinished: 1, Outcomes: map[string]int64{"success": 2}}}})
}

// longText is a JSON string of 40 bytes or more.
var longText = regexp.MustCompile(`"(?:[^"\\]|\\.){40,}"`)

// shorten replaces the long texts of a stream (the analysis's block rule
// and interval method, warnings) with short ones: the fuzzer's inputs
// stay small, which every run and every minimization pays for.
func shorten(stream []byte) []byte {
	return longText.ReplaceAll(stream, []byte(`"text"`))
}

func must(f testing.TB, err error) {
	f.Helper()
	if err != nil {
		f.Fatal(err)
	}
}

// options make the analysis as cheap as it may be (the fewest resamples
// fb-analyze accepts), so the fuzzer spends its time on new inputs.
func options() analyze.Options {
	opt := analyze.DefaultOptions
	opt.Resamples, opt.ProcessResamples = 100, 1000
	return opt
}

// maxInput bounds the inputs the pipeline is run on: a larger one costs
// more to run and, when it finds new coverage, much more to minimize
// (each byte range removed is a run), and adds nothing a smaller stream
// of the same records does not.
const maxInput = 12 << 10

// FuzzPipeline: whatever fb-analyze accepts, fb-report reads back with
// one analysed run per run record, and the reader of runs never panics
// and reports every failure at its line. variant chooses the analysis's
// settings (variantOptions). It is kept cheap so that it explores
// (flybench issue 21, item 11: 24 inputs fuzzed in 30 s): small seeds,
// inputs over maxInput skipped, the fewest resamples; and make fuzz gives
// it 1 s, not 10, to minimize an input with new coverage, which here is
// mostly not reproducible and was never shrunk.
func FuzzPipeline(f *testing.F) {
	for i, s := range seedStreams(f) {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, variant uint8) {
		if len(data) > maxInput {
			return
		}
		checkGrouping(t, data)
		var out bytes.Buffer
		err := analyze.Stream(ndjson.NewReader(bytes.NewReader(data), "in"), ndjson.NewWriter(&out), variantOptions(variant))
		if err != nil {
			return
		}
		got, err := report.Load(ndjson.NewReader(bytes.NewReader(out.Bytes()), "out"))
		if err != nil {
			t.Fatalf("fb-report refuses what fb-analyze wrote: %v\ninput:\n%s\noutput:\n%s", err, data, out.Bytes())
		}
		if n := runRecords(t, out.Bytes()); len(got) != n {
			t.Fatalf("%d runs loaded from %d run records", len(got), n)
		}
		for _, r := range got {
			if r.Analysis == nil {
				t.Fatalf("run %s of fb-analyze's output has no analysis:\n%s", r.Run.RunID, out.Bytes())
			}
		}
	})
}

// TestSeedsFitTheFuzzer: every seed is run, none skipped for its size.
func TestSeedsFitTheFuzzer(t *testing.T) {
	for i, s := range seedStreams(t) {
		if len(s) > maxInput {
			t.Errorf("seed %d is %d bytes, over maxInput %d", i, len(s), maxInput)
		}
	}
}

// variantOptions are options() with the estimator, the confidence, the
// threshold and the outcome filter chosen by the bits of v.
func variantOptions(v uint8) analyze.Options {
	opt := options()
	opt.Estimator = []stats.Estimator{"", stats.EstimatorMean, stats.EstimatorLegacy, stats.EstimatorRobust}[v&3]
	opt.Confidence = []float64{95, 90}[v>>2&1]
	opt.ThresholdPct = []float64{1, 0}[v>>3&1]
	opt.Outcome = []string{"", ndjson.OutcomeSuccess}[v>>4&1]
	return opt
}

// runRecords counts the run records of a stream fb-analyze wrote, as the
// reader reads them (a key may be spelled in any case).
func runRecords(t *testing.T, stream []byte) int {
	r := ndjson.NewReader(bytes.NewReader(stream), "out")
	n := 0
	for {
		l, err := r.Next()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("fb-analyze wrote a line its reader refuses: %v", err)
		}
		if l.Type == ndjson.TypeRun {
			n++
		}
	}
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
