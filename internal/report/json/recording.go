package json

import (
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// jsonRecording is one recording in the JSON document. Records keep their
// stream form; spans are not carried (the stream has them).
type jsonRecording struct {
	Recording ndjson.Recording `json:"recording"`
	// End is null for a recording cut short.
	End            *ndjson.RecordingEnd    `json:"end"`
	Spans          int                     `json:"spans"`
	Processes      []ndjson.ProcessUsage   `json:"processes"`
	Summaries      []ndjson.SpanSummary    `json:"span_summaries"`
	Comparisons    []ndjson.SpanComparison `json:"span_comparisons"`
	StreamWarnings []string                `json:"stream_warnings"`
}

func jsonRecordings(recs []*model.Recording) []jsonRecording {
	var out []jsonRecording
	for _, r := range recs {
		out = append(out, jsonRecording{Recording: r.Record, End: r.End, Spans: r.Spans,
			Processes: orEmpty(r.Processes), Summaries: orEmpty(r.Summaries),
			Comparisons: orEmpty(r.Comparisons), StreamWarnings: orEmpty(r.StreamWarnings)})
	}
	return out
}
