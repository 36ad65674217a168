package record

import (
	"strconv"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Source is the recording record's source: fb-record received the spans
// over its socket or FIFO, whichever encoding each connection used.
const Source = "protocol"

// Reasons a recording ends (recording_end's reason).
const (
	ReasonProgramExited = "program_exited" // PROGRAM exited with status 0
	ReasonProgramFailed = "program_failed" // PROGRAM exited non-zero or by a signal
	ReasonDuration      = "duration"       // --duration elapsed
	ReasonInterrupted   = "interrupted"    // SIGINT or SIGTERM
)

// Meta is what the recording record says besides the benchmarks.
type Meta struct {
	RunID       string
	Tool        string
	ToolVersion string
	Started     string
	Host        ndjson.Host
	Clock       ndjson.Clock
	Program     *ndjson.RecordedProgram
}

// WallAxis describes the wall axis of a recording fb-record writes.
func WallAxis() ndjson.AxisInfo {
	return ndjson.AxisInfo{
		Name: "wall", Unit: "ns", Family: "time", Scope: "individual_span", Attribution: "span_boundaries",
		Direction: "lower", Normalization: "absolute", Status: "collected",
	}
}

// Write writes the whole recording: the recording record, the process
// records, every retained span by benchmark and observation number, and
// recording_end.
func (r *Recording) Write(w *ndjson.Writer, m Meta, usage []ndjson.ProcessUsage, reason string) error {
	benches := r.Benches()
	if err := w.Write(r.header(m, benches)); err != nil {
		return err
	}
	for i := range usage {
		usage[i].RunID = m.RunID
		if err := w.Write(&usage[i]); err != nil {
			return err
		}
	}
	for _, b := range benches {
		if err := writeSpans(w, m.RunID, b); err != nil {
			return err
		}
	}
	end := &ndjson.RecordingEnd{RunID: m.RunID, Reason: reason, ElapsedNS: r.Now(), Benchmarks: []ndjson.BenchmarkTally{},
		ProtocolErrors: r.ProtocolErrors(), RefusedConnections: r.RefusedConnections(), ShedConnections: r.ShedConnections(),
		DiscardedSpans: r.DiscardedSpans(), DroppedAxes: r.DroppedAxes()}
	for _, b := range benches {
		end.Benchmarks = append(end.Benchmarks, b.Tally())
	}
	if err := w.Write(end); err != nil {
		return err
	}
	return w.Flush()
}

func (r *Recording) header(m Meta, benches []*Bench) *ndjson.Recording {
	rec := &ndjson.Recording{
		RunID: m.RunID, Tool: m.Tool, ToolVersion: m.ToolVersion, Started: m.Started, Source: Source,
		SampleSemantics: ndjson.SampleSemanticsIndividualSpan, Benchmarks: []ndjson.RecordingBenchmark{},
		Retention: ndjson.Retention{Policy: r.policy.Name, Capacity: r.policy.Capacity},
		Axes:      append([]ndjson.AxisInfo{WallAxis()}, r.Axes()...),
		Host:      m.Host, Clock: m.Clock, Program: m.Program,
	}
	if r.policy.Name == ndjson.RetainReservoir {
		rec.Retention.Seed = r.policy.Seed
	}
	for _, b := range benches {
		rec.Benchmarks = append(rec.Benchmarks, ndjson.RecordingBenchmark{Index: b.Index, Name: b.Name})
	}
	return rec
}

// chunk is the size of the runs of span lines passed to the writer at
// once.
const chunk = 256 << 10

// writeSpans writes a benchmark's retained spans. Spans without axes are
// formatted by appendSpan and passed on in chunks of whole lines (WriteRaw
// adds the last newline); the others are encoded one by one.
func writeSpans(w *ndjson.Writer, runID string, b *Bench) error {
	buf := make([]byte, 0, chunk+512)
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		err := w.WriteRaw(buf[:len(buf)-1])
		buf = buf[:0]
		return err
	}
	for _, row := range b.Rows() {
		if row.Axes != nil || row.WallNS < 0 {
			if err := flush(); err != nil {
				return err
			}
			if err := w.Write(spanRecord(runID, b.Index, row)); err != nil {
				return err
			}
			continue
		}
		buf = append(appendSpan(buf, w.Version, runID, b.Index, row), '\n')
		if len(buf) >= chunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

func spanRecord(runID string, index int, row Row) *ndjson.Span {
	s := &ndjson.Span{RunID: runID, Benchmark: index, Obs: row.Obs, Outcome: row.Outcome.String(), StartNS: row.StartNS, Axes: row.Axes}
	if row.WallNS >= 0 {
		wall := row.WallNS
		s.WallNS = &wall
	}
	return s
}

// appendSpan appends the span record of a row without axes exactly as
// ndjson.Writer encodes it, without reflection: the bulk of a stream.
// runID must need no JSON escape (fb-record's are UUIDs).
func appendSpan(b []byte, version, runID string, index int, row Row) []byte {
	b = append(b, `{"type":"span","v":"`...)
	b = append(b, version...)
	b = append(b, `","run_id":"`...)
	b = append(b, runID...)
	b = append(b, `","b":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	b = append(b, `,"obs":`...)
	b = strconv.AppendInt(b, row.Obs, 10)
	b = append(b, `,"outcome":"`...)
	b = append(b, row.Outcome.String()...)
	b = append(b, `","start_ns":`...)
	b = strconv.AppendInt(b, row.StartNS, 10)
	b = append(b, `,"wall_ns":`...)
	b = strconv.AppendInt(b, row.WallNS, 10)
	return append(b, '}')
}
