package report

import (
	"fmt"

	"github.com/flybench/flybench/internal/runs"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Recording is everything the stream said about one recording: spans of
// work the application drove, timed one by one, and fb-analyze's
// summaries of them (fb-stream(5)).
type Recording struct {
	Record ndjson.Recording
	// End is nil for a recording cut short.
	End *ndjson.RecordingEnd
	// Processes are the observed program's and the recorder's CPU and
	// memory over time.
	Processes []ndjson.ProcessUsage
	// Summaries are the span_summary records, one per benchmark.
	Summaries []ndjson.SpanSummary
	// Comparisons are the span_comparison records whose contender this
	// recording is.
	Comparisons []ndjson.SpanComparison
	// StreamWarnings are what reading the stream found, e.g. that it
	// ends mid-record after this recording.
	StreamWarnings []string
	// Spans is the number of span records.
	Spans int
	// SpanTimes are the start and wall time of every span record with a
	// wall time, for the latency-over-time plot (figure_spans.go).
	SpanTimes []SpanTime
}

// SpanTime is when one span started, since the recording began, and
// how long it took, both in nanoseconds; B is its benchmark's index.
type SpanTime struct {
	B               int
	StartNS, WallNS int64
}

// Stream is a whole report's input: its runs and its recordings, each in
// stream order.
type Stream struct {
	Runs       []*Run
	Recordings []*Recording
}

// LoadStream reads a whole stream like Load, keeping its recordings too.
func LoadStream(r *ndjson.Reader) (*Stream, error) {
	g := runs.NewReader(r)
	ld := &loader{byRun: map[*runs.Run]*Run{}, byRec: map[*runs.Recording]*Recording{}}
	for {
		rec, err := g.Next()
		if err != nil {
			got, err := ld.stop(g, err)
			if err != nil {
				return nil, err
			}
			return &Stream{Runs: got, Recordings: ld.recs}, nil
		}
		if rec.Type == ndjson.TypeSuite {
			if err := ld.addSuite(r, rec); err != nil {
				return nil, err
			}
			continue
		}
		if rec.Type == ndjson.TypeAA {
			if err := ld.addAA(r, rec); err != nil {
				return nil, err
			}
			continue
		}
		ld.add(rec)
	}
}

// addRecording keeps a record of a recording.
func (ld *loader) addRecording(rec runs.Record) {
	if v, ok := rec.Value.(*ndjson.Recording); ok {
		r := &Recording{Record: *v}
		ld.recs = append(ld.recs, r)
		ld.byRec[rec.Recording] = r
		return
	}
	r := ld.byRec[rec.Recording]
	switch v := rec.Value.(type) {
	case *ndjson.Span:
		r.Spans++
		if v.WallNS != nil {
			r.SpanTimes = append(r.SpanTimes, SpanTime{B: v.Benchmark, StartNS: v.StartNS, WallNS: *v.WallNS})
		}
	case *ndjson.ProcessUsage:
		r.Processes = append(r.Processes, *v)
	case *ndjson.RecordingEnd:
		r.End = v
	case *ndjson.SpanSummary:
		r.Summaries = append(r.Summaries, *v)
	case *ndjson.SpanComparison:
		r.Comparisons = append(r.Comparisons, *v)
	}
}

// checkRecordings refuses a recording fb-analyze did not summarize.
func checkRecordings(recs []*Recording) error {
	for _, r := range recs {
		switch {
		case len(r.Summaries) > 0:
		case len(r.StreamWarnings) > 0:
			return fmt.Errorf("recording %s has no span_summary records: the %s", shortID(r.Record.RunID), r.StreamWarnings[0])
		default:
			return &NotAnalyzedError{fmt.Sprintf("recording %s was not analyzed: pipe the stream through fb-analyze first "+
				"(fb-record ... | fb-analyze | fb-report)", shortID(r.Record.RunID))}
		}
	}
	return nil
}

// warnings are the recording's warnings from reading the stream.
func (r *Recording) warnings() []string { return r.StreamWarnings }
