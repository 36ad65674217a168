package report

import (
	"bytes"
	stdcsv "encoding/csv"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/recfixture"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// recordingStream is the fixture's two recordings analysed as
// fb-analyze before.ndjson after.ndjson writes them: the after
// recording's tail 20% slower, scan's wall time incomplete.
func recordingStream(t *testing.T) *model.Stream {
	t.Helper()
	var out bytes.Buffer
	w := ndjson.NewWriter(&out)
	opt := flaggedOptions
	opt.Resamples = 200
	opt.Recordings = analyze.NewSpanComparer()
	for _, in := range [][]ndjson.Record{
		recfixture.Recording("rec-before", recfixture.Small, 1, 1),
		recfixture.Recording("rec-after", recfixture.Small, 1.2, 1),
	} {
		check(t, analyze.Stream(ndjson.NewReader(bytes.NewReader(streamOf(t, in)), "in"), w, opt))
	}
	check(t, analyze.WriteSpanComparisons(w, opt.Recordings, opt))
	s, err := LoadStream(ndjson.NewReader(&out, "analysed"))
	check(t, err)
	return s
}

func renderStream(t *testing.T, s *model.Stream, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	check(t, WriteStream(&buf, s, opt))
	return buf.Bytes()
}

func TestRecordingGolden(t *testing.T) {
	s := recordingStream(t)
	if len(s.Runs) != 0 || len(s.Recordings) != 2 || len(s.Recordings[1].Comparisons) != 3 || s.Recordings[0].Spans != 400 {
		t.Fatalf("runs %d, recordings %+v", len(s.Runs), s.Recordings)
	}
	for _, f := range Formats() {
		if f == "hyperfine-json" || f == "svg" || f == "gobench" || f == "bmf" {
			continue // refuse recordings (TestHyperfineRefusesRecordings, TestRunFormatsRefuseRecordings); one figure (svg_test.go)
		}
		golden(t, "recording-"+f+".golden", renderStream(t, s, Options{Format: f}))
	}
}

// TestRecordingIndependentEverywhere: every format marks the span
// comparisons independent.
func TestRecordingIndependentEverywhere(t *testing.T) {
	s := recordingStream(t)
	for _, f := range Formats() {
		if f == "hyperfine-json" || f == "svg" || f == "gobench" || f == "bmf" {
			continue // refuse recordings (TestHyperfineRefusesRecordings, TestRunFormatsRefuseRecordings); one figure (svg_test.go)
		}
		if out := renderStream(t, s, Options{Format: f}); !bytes.Contains(out, []byte("independent")) {
			t.Errorf("%s does not say independent", f)
		}
	}
}

// TestRecordingJSONNullChange: scan's wall time is incomplete, so its
// changes are null in the JSON document, and "unavailable" on the
// console.
func TestRecordingJSONNullChange(t *testing.T) {
	s := recordingStream(t)
	var doc struct {
		Recordings []struct {
			Comparisons []ndjson.SpanComparison `json:"span_comparisons"`
		} `json:"recordings"`
	}
	check(t, json.Unmarshal(renderStream(t, s, Options{Format: "json"}), &doc))
	scan := doc.Recordings[1].Comparisons[2]
	if scan.Name != "scan" || scan.WallAvailable || scan.Changes[0].ChangePct != nil || scan.ComparisonDesign != "independent" {
		t.Errorf("scan %+v", scan)
	}
	if !bytes.Contains(renderStream(t, s, Options{Format: "console"}), []byte("scan       p50  unavailable")) {
		t.Error("the console does not say scan's change is unavailable")
	}
}

// TestRecordingCSVRows: one span_summary row per benchmark and one
// span_comparison row per compared benchmark, each as wide as the header;
// the long format has a row per axis and per percentile.
func TestRecordingCSVRows(t *testing.T) {
	s := recordingStream(t)
	for _, tc := range []struct {
		format     string
		sum, compa int
	}{{"csv", 6, 3}, {"long-csv", 6*2 + 6*5, 3 * 4}} {
		rows, err := stdcsv.NewReader(bytes.NewReader(renderStream(t, s, Options{Format: tc.format}))).ReadAll()
		check(t, err)
		count := map[string]int{}
		for _, row := range rows[1:] {
			count[row[1]]++
		}
		if count["span_summary"] != tc.sum || count["span_comparison"] != tc.compa || len(rows) != 1+tc.sum+tc.compa {
			t.Errorf("%s: %v in %d rows", tc.format, count, len(rows))
		}
	}
}

// TestRecordingNotAnalyzed: a raw recording is refused with the hint.
func TestRecordingNotAnalyzed(t *testing.T) {
	s, err := LoadStream(ndjson.NewReader(bytes.NewReader(streamOf(t, recfixture.Recording("raw", recfixture.Sizes{3, 3, 3}, 1, 1))), "raw"))
	check(t, err)
	err = WriteStream(&bytes.Buffer{}, s, Options{})
	if _, ok := err.(*model.NotAnalyzedError); !ok || !strings.Contains(err.Error(), "recording raw was not analyzed") {
		t.Errorf("%T %v", err, err)
	}
}
