package model

import (
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Recording is everything the stream said about one recording: spans of
// work the application drove, timed one by one, and fb-analyze's
// summaries of them (fb-stream(5)).
type Recording struct {
	Record ndjson.Recording
	// Names spells the options the words name (Stream.Spell).
	Names field.Names
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
	// wall time, for the latency-over-time plot.
	SpanTimes []SpanTime
}

// SpanTime is when one span started, since the recording began, and
// how long it took, both in nanoseconds; B is its benchmark's index.
type SpanTime struct {
	B               int
	StartNS, WallNS int64
}

// Warnings are the recording's warnings from reading the stream.
func (r *Recording) Warnings() []string { return r.StreamWarnings }

// AxisInfo is the recording's descriptor of the axis called name, or a
// bare one in unit for an axis the recording record does not list.
func (r *Recording) AxisInfo(name, unit string) ndjson.AxisInfo {
	for _, a := range r.Record.Axes {
		if a.Name == name {
			return a
		}
	}
	return ndjson.AxisInfo{Name: name, Unit: unit}
}
