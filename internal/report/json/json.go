// Package json is fb-report --format json: the whole stream as one
// document, its runs (every raw sample only when asked), suites, A/A
// series and recordings, each record in its stream form.
package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"

	json "github.com/goccy/go-json"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/internal/report/splice"
	"github.com/flybench/flybench/pkg/ndjson"
)

// jsonDocument is the whole stream as one document. Records keep their
// stream form, type and schema version included, so jq filters written for
// the stream also fit here.
type jsonDocument struct {
	Schema string    `json:"schema"`
	Runs   []jsonRun `json:"runs"`
	// Suites are the suite records, present when the stream has any.
	Suites []ndjson.Suite `json:"suites,omitempty"`
	// AA are the A/A series' summaries, present when the stream has any.
	AA []ndjson.AA `json:"aa,omitempty"`
	// Recordings are the recordings with their analysis, present when
	// the stream has any (recording.go).
	Recordings []jsonRecording `json:"recordings,omitempty"`
}

type jsonRun struct {
	Run ndjson.Run `json:"run"`
	// Lock, Gate and Environment are null when the stream has none.
	Lock         *ndjson.Lock         `json:"lock"`
	Gate         *ndjson.Gate         `json:"gate"`
	Calibrations []ndjson.Calibration `json:"calibrations"`
	Windows      []ndjson.Window      `json:"windows"`
	Looks        []ndjson.Look        `json:"looks"`
	End          *ndjson.End          `json:"end"`
	Analysis     *ndjson.Analysis     `json:"analysis"`
	Summaries    []ndjson.Summary     `json:"summaries"`
	Comparisons  []ndjson.Comparison  `json:"comparisons"`
	// Baseline holds the comparisons with an archived baseline run
	// (analysis.baseline says which), empty without one.
	Baseline    []ndjson.Comparison `json:"baseline"`
	Environment *ndjson.Environment `json:"environment"`
	// StreamWarnings are what fb-report found reading the stream (the
	// analysis's own warnings are in Analysis).
	StreamWarnings []string `json:"stream_warnings"`
	// Samples is present only when asked for: the samples in their stream
	// form, written in at its place (sampleArray).
	Samples *splice.Place `json:"samples,omitempty"`
}

// Write renders runs and recordings as one document, every raw sample of
// each run included when samples is set. The samples are written into the
// document as it goes to w, one at a time from the runs' stores, so that
// an export of a long run never holds its text (indented, over twice the
// stream) in memory; the rest of the document is built first.
func Write(w io.Writer, s *model.Stream, samples bool) error {
	doc := jsonDocument{Schema: ndjson.Version, Runs: make([]jsonRun, 0, len(s.Runs))}
	var arrays []splice.Array
	marks := splice.NewMarks()
	for _, r := range s.Runs {
		jr := newJSONRun(r)
		if samples {
			mark := marks.Next()
			jr.Samples = &mark
			arrays = append(arrays, sampleArray(mark, r.Samples))
		}
		doc.Runs = append(doc.Runs, jr)
	}
	doc.Suites = model.Suites(s.Runs)
	doc.AA = model.AAs(s.Runs)
	doc.Recordings = jsonRecordings(s.Recordings)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("encode JSON report: %w", err)
	}
	return splice.Write(w, buf.Bytes(), arrays)
}

// sampleArray is a run's samples in their stream form, each indented as
// the encoder indents the rest of the document.
func sampleArray(mark splice.Place, st *model.SampleStore) splice.Array {
	var sample bytes.Buffer
	return splice.Array{Mark: mark, Len: st.Len(), Item: func(i int, indent string) ([]byte, error) {
		text, err := st.JSON(i)
		if err != nil {
			return nil, err
		}
		sample.Reset()
		if err := stdjson.Indent(&sample, text, indent, "  "); err != nil {
			return nil, fmt.Errorf("encode JSON report: %w", err)
		}
		return sample.Bytes(), nil
	}}
}

// newJSONRun copies r, turning absent lists into empty ones so a consumer
// never has to tell null from [].
func newJSONRun(r *model.Run) jsonRun {
	jr := jsonRun{
		Run:            r.Run,
		Lock:           r.Lock,
		Gate:           r.Gate,
		Calibrations:   orEmpty(r.Calibrations),
		Windows:        orEmpty(r.Windows),
		Looks:          orEmpty(r.Looks),
		End:            r.End,
		Analysis:       r.Analysis,
		Summaries:      orEmpty(r.Summaries),
		Comparisons:    orEmpty(r.Comparisons),
		Baseline:       orEmpty(r.Baseline),
		Environment:    r.Environment,
		StreamWarnings: orEmpty(r.StreamWarnings),
	}
	return jr
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
