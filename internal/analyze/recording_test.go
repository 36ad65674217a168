package analyze

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/golden"
	"github.com/flybench/flybench/internal/recfixture"
	"github.com/flybench/flybench/pkg/ndjson"
)

// recordingStream writes records as an NDJSON stream.
func recordingStream(t *testing.T, recs ...[]ndjson.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := ndjson.NewWriter(&buf)
	for _, rs := range recs {
		for _, r := range rs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// analyzeRecords runs Stream over records and returns what it wrote and
// the records of the given type.
func analyzeRecords(t *testing.T, in []byte, opt Options) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := Stream(ndjson.NewReader(bytes.NewReader(in), "in"), ndjson.NewWriter(&out), opt); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func decodeAll[T any](t *testing.T, out []byte, typ string) []*T {
	t.Helper()
	r := ndjson.NewReader(bytes.NewReader(out), "out")
	var got []*T
	for {
		l, err := r.Next()
		if err != nil {
			return got
		}
		if l.Type != typ {
			continue
		}
		v := new(T)
		if err := r.Decode(l, v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
}

func quick() Options {
	opt := DefaultOptions
	opt.Resamples = 200
	return opt
}

// linearRecording has one benchmark whose n spans take 1000, 2000, ...
// n·1000 ns, in a shuffled order, with thread_cpu on every span.
func linearRecording(id string, n int, outcomeOf func(i int) string) []ndjson.Record {
	rec := &ndjson.Recording{RunID: id, SampleSemantics: ndjson.SampleSemanticsIndividualSpan,
		Benchmarks: []ndjson.RecordingBenchmark{{Name: "op"}},
		Axes:       []ndjson.AxisInfo{{Name: "wall", Unit: "ns", Status: "collected"}, {Name: "thread_cpu", Unit: "ns", Status: "collected"}}}
	recs := []ndjson.Record{rec}
	for i := range n {
		k := (i*7919)%n + 1 // a permutation of 1..n (7919 is prime and n < 7919)
		wall := int64(k) * 1000
		recs = append(recs, &ndjson.Span{RunID: id, Obs: int64(i + 1), Outcome: outcomeOf(k), WallNS: &wall,
			Axes: map[string]ndjson.AxisValue{"thread_cpu": ndjson.Collected(float64(k))}})
	}
	return append(recs, &ndjson.RecordingEnd{RunID: id, Reason: "stopped",
		Benchmarks: []ndjson.BenchmarkTally{{Observed: int64(n), Retained: int64(n), Outcomes: map[string]int64{"success": int64(n)}}}})
}

func allSuccess(int) string { return ndjson.OutcomeSuccess }

// TestSpanPercentilesExact: type-7 percentiles of 1000..2000000 ns in
// steps of 1000, and the evidence rule at its edges.
func TestSpanPercentilesExact(t *testing.T) {
	out := analyzeRecords(t, recordingStream(t, linearRecording("lin", 2000, allSuccess)), quick())
	sums := decodeAll[ndjson.SpanSummary](t, out, ndjson.TypeSpanSummary)
	if len(sums) != 1 {
		t.Fatalf("%d span summaries", len(sums))
	}
	s := sums[0]
	if s.N != 2000 || s.SampleSemantics != "individual_span" || s.Outcome != "all" || s.WallStatus != "collected" {
		t.Fatalf("summary %+v", s)
	}
	// rank h = 1999·p/100 from 0; value = 1000·(h+1)
	want := map[float64]float64{50: 1_000_500, 90: 1_800_100, 95: 1_900_050, 99: 1_980_010}
	for _, p := range s.Wall.Percentiles {
		w, ok := want[p.P]
		switch {
		case p.P == 99.9:
			if p.Status != PercentileInsufficient || p.Value != 0 || p.CI != nil {
				t.Errorf("p99.9 of 2000 spans: %+v, want insufficient evidence (needs 10000)", p)
			}
		case !ok || p.Status != "ok" || !nearRel(p.Value, w):
			t.Errorf("p%g = %+v, want %g", p.P, p, w)
		case !(p.CI[0] <= p.Value && p.Value <= p.CI[1]) || p.CI[1]-p.CI[0] > 0.1*p.Value:
			t.Errorf("p%g interval %v around %g", p.P, *p.CI, p.Value)
		}
	}
	if s.Wall.Mean != 1_000_500 {
		t.Errorf("mean %g", s.Wall.Mean)
	}
}

func nearRel(a, b float64) bool { return a-b < 1e-6*b && b-a < 1e-6*b }

func TestEvidenceRule(t *testing.T) {
	for _, tc := range []struct {
		p    float64
		edge int // the fewest spans that estimate p
	}{{50, 20}, {90, 100}, {95, 200}, {99, 1000}, {99.9, 10000}} {
		if !enoughSpans(tc.edge, tc.p) || enoughSpans(tc.edge-1, tc.p) {
			t.Errorf("p%g: %d spans enough %v, %d enough %v", tc.p, tc.edge, enoughSpans(tc.edge, tc.p), tc.edge-1, enoughSpans(tc.edge-1, tc.p))
		}
	}
}

// TestSpanSummaryDeterministic: the same input and seed give the same
// bytes; another seed moves the intervals, not the estimates.
func TestSpanSummaryDeterministic(t *testing.T) {
	in := recordingStream(t, recfixture.Recording("a", recfixture.Small, 1, 3))
	a, b := analyzeRecords(t, in, quick()), analyzeRecords(t, in, quick())
	if !bytes.Equal(a, b) {
		t.Fatal("two analyses of one input differ")
	}
	opt := quick()
	opt.Seed = 2
	c := analyzeRecords(t, in, opt)
	x, y := decodeAll[ndjson.SpanSummary](t, a, ndjson.TypeSpanSummary)[0], decodeAll[ndjson.SpanSummary](t, c, ndjson.TypeSpanSummary)[0]
	if x.Wall.Percentiles[0].Value != y.Wall.Percentiles[0].Value || *x.Wall.Percentiles[0].CI == *y.Wall.Percentiles[0].CI {
		t.Errorf("seed 1 %+v, seed 2 %+v", x.Wall.Percentiles[0], y.Wall.Percentiles[0])
	}
}

// TestOutcomeFilterAligned: --outcome failure summarizes the same spans
// on wall time and on every axis; the failures are spans 10, 20, ...
func TestOutcomeFilterAligned(t *testing.T) {
	every10 := func(k int) string {
		if k%10 == 0 {
			return ndjson.OutcomeFailure
		}
		return ndjson.OutcomeSuccess
	}
	opt := quick()
	opt.Outcome = ndjson.OutcomeFailure
	out := analyzeRecords(t, recordingStream(t, linearRecording("f", 400, every10)), opt)
	s := decodeAll[ndjson.SpanSummary](t, out, ndjson.TypeSpanSummary)[0]
	if s.N != 40 || s.Outcome != "failure" || s.RetainedOutcomes["success"] != 360 || s.RetainedOutcomes["failure"] != 40 {
		t.Fatalf("n %d, outcome %s, retained outcomes %v", s.N, s.Outcome, s.RetainedOutcomes)
	}
	wall, cpu := s.Axes[0], s.Axes[1]
	if wall.N != 40 || cpu.N != 40 || wall.Stats.Min != 10_000 || cpu.Stats.Min != 10 || wall.Stats.Max != 400_000 || cpu.Stats.Max != 400 {
		t.Errorf("wall %+v %+v, thread_cpu %+v %+v", wall, wall.Stats, cpu, cpu.Stats)
	}
	if p50 := s.Wall.Percentiles[0]; p50.Value != 205_000 {
		t.Errorf("p50 of the failures %+v, want 205000", p50)
	}
	if !strings.Contains(strings.Join(s.Warnings, "|"), "analyze.Outcome failure: 40 of 400 retained spans summarized") {
		t.Errorf("warnings %q", s.Warnings)
	}
	if err := (Options{Resamples: 200, Confidence: 95, Outcome: "ok"}).Validate(); err == nil || !strings.Contains(err.Error(), `analyze.Outcome "ok"`) {
		t.Errorf("bad --outcome: %v", err)
	}
}

// TestPartialAxisAndWall: the fixture's migrated "put" spans make
// thread_cpu partially collected; the "scan" span without wall_ns makes
// wall time partial and keeps the percentiles to the spans with one.
func TestPartialAxisAndWall(t *testing.T) {
	out := analyzeRecords(t, recordingStream(t, recfixture.Recording("a", recfixture.Small, 1, 1)), quick())
	sums := decodeAll[ndjson.SpanSummary](t, out, ndjson.TypeSpanSummary)
	put, scan := sums[1], sums[2]
	if cpu := put.Axes[1]; cpu.Status != "partially_collected" || cpu.N+cpu.Missing != put.N || cpu.Missing != 17 ||
		!strings.Contains(cpu.Reason, "unattributable: the span ended on another OS thread") {
		t.Errorf("put thread_cpu %+v", cpu)
	}
	if scan.WallStatus != "partially_collected" || scan.Axes[0].Missing != 1 || scan.Axes[0].N != 39 || scan.N != 40 {
		t.Errorf("scan wall %s %+v", scan.WallStatus, scan.Axes[0])
	}
	if put.Outcomes["failure"] != 4 || put.RetainedOutcomes["failure"] != 2 || put.Tally.Omitted != 120 {
		t.Errorf("put outcomes: observed %v retained %v tally %+v", put.Outcomes, put.RetainedOutcomes, put.Tally)
	}
}

// twoRecordings analyses the fixture's before and after recordings as
// fb-analyze before.ndjson after.ndjson does: one comparer across inputs.
func twoRecordings(t *testing.T, sizes recfixture.Sizes, opt Options) []byte {
	t.Helper()
	var out bytes.Buffer
	w := ndjson.NewWriter(&out)
	opt.Recordings = NewSpanComparer()
	for _, in := range [][]byte{
		recordingStream(t, recfixture.Recording("rec-before", sizes, 1, 1)),
		recordingStream(t, recfixture.Recording("rec-after", sizes, 1.2, 1)),
	} {
		if err := Stream(ndjson.NewReader(bytes.NewReader(in), "in"), w, opt); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteSpanComparisons(w, opt.Recordings, opt); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestSpanComparison: the after recording's tail is 20% slower; p95 is
// found slower, p50 is not, and scan, whose wall time is incomplete, has
// no change.
func TestSpanComparison(t *testing.T) {
	out := twoRecordings(t, recfixture.Large, quick())
	ks := decodeAll[ndjson.SpanComparison](t, out, ndjson.TypeSpanComparison)
	if len(ks) != 3 {
		t.Fatalf("%d span comparisons", len(ks))
	}
	get, scan := ks[0], ks[2]
	for _, k := range ks {
		if k.ComparisonDesign != "independent" || k.ReferenceRun != "rec-before" || k.ContenderRun != "rec-after" {
			t.Errorf("comparison %+v", k)
		}
	}
	if !get.WallAvailable || get.Changes[0].Verdict == "reference faster" {
		t.Errorf("get p50 %+v", get.Changes[0])
	}
	p95 := get.Changes[2]
	if p95.P != 95 || p95.Verdict != "reference faster" || *p95.ChangePct < 19 || *p95.ChangePct > 21 || p95.CI[0] > 20 || p95.CI[1] < 20 {
		t.Errorf("get p95 %+v %v", p95, *p95.CI)
	}
	if scan.WallAvailable || scan.Changes[0].ChangePct != nil || scan.Changes[0].Verdict != "unavailable" || len(scan.Warnings) != 2 {
		t.Errorf("scan %+v", scan)
	}
	if !bytes.Contains(out, []byte(`"p":50,"change_pct":null,"ci_pct":null,"verdict":"unavailable"`)) {
		t.Error("scan's change is not null in JSON")
	}
	if !bytes.Equal(out, twoRecordings(t, recfixture.Large, quick())) {
		t.Error("two analyses differ")
	}
}

// TestRecordingGolden fixes the whole output for the small fixture: both
// recordings in one input, comparisons at its end.
func TestRecordingGolden(t *testing.T) {
	in := recordingStream(t, recfixture.Recording("rec-before", recfixture.Small, 1, 1), recfixture.Recording("rec-after", recfixture.Small, 1.2, 1))
	out := analyzeRecords(t, in, quick())
	var kept bytes.Buffer
	for _, line := range bytes.SplitAfter(out, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte(`{"type":"span",`)) {
			kept.Write(line)
		}
	}
	golden.Check(t, "recording.golden", kept.Bytes())
	// a second analysis replaces the first's records
	if again := analyzeRecords(t, out, quick()); !bytes.Equal(again, out) {
		t.Error("analysing the analysed stream changed it")
	}
}

// TestRecordingCutShort: a recording without recording_end is summarized
// with what it has, and says so.
func TestRecordingCutShort(t *testing.T) {
	recs := linearRecording("c", 100, allSuccess)
	in := recordingStream(t, recs[:len(recs)-1])
	s := decodeAll[ndjson.SpanSummary](t, analyzeRecords(t, in, quick()), ndjson.TypeSpanSummary)[0]
	if s.Tally != nil || s.Outcomes != nil || s.N != 100 || !strings.Contains(s.Warnings[0], "cut short") {
		t.Errorf("%+v", s)
	}
}

// TestRecordingLossesWarned: spans fb-record refused, shed or discarded
// (counted in recording_end, in no tally) are named in every summary's
// warnings, so a report does not present the tallies as every span.
func TestRecordingLossesWarned(t *testing.T) {
	recs := linearRecording("l", 100, allSuccess)
	end := recs[len(recs)-1].(*ndjson.RecordingEnd)
	end.RefusedConnections, end.ShedConnections, end.DiscardedSpans, end.DroppedAxes = 3, 1, 7, 40
	s := decodeAll[ndjson.SpanSummary](t, analyzeRecords(t, recordingStream(t, recs), quick()), ndjson.TypeSpanSummary)[0]
	want := "fb-record refused 3 connections, shed 1 and discarded 7 spans that arrived after a connection's fault: their spans are in no tally; it dropped 40 undeclared axis values"
	if len(s.Warnings) != 1 || s.Warnings[0] != want {
		t.Errorf("warnings %q", s.Warnings)
	}
}
