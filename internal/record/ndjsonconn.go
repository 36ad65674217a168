package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/flybench/flybench/pkg/ndjson"
)

// recorderConn is a connection carrying the recorder package's NDJSON
// stream: a recording record, span records, a recording_end record.
type recorderConn struct {
	rec     *Recording
	rd      *ndjson.Reader
	line    int
	benches []*Bench // by the stream's own benchmark index
	offset  int64    // the stream's start on this recording's clock
	sent    [][numOutcomes]int64
	ended   bool
	// declared are the axes the stream's recording record lists; a
	// span's other axes are dropped.
	declared map[string]bool
}

// serveRecorder reads a recorder stream from br until it ends. Its
// benchmarks join this recording by name; its spans are finished spans
// of them, numbered in the order received, with their start moved to
// this recording's clock (the stream's start is taken as the moment its
// recording record arrived), their wall time and every declared axis
// kept. Its lines pass a lineMeter, so no line over the limit is held
// whole. After a fault the rest of the stream is read and its spans
// counted as discarded.
func (r *Recording) serveRecorder(name string, br *bufio.Reader, report func(error)) error {
	m := &lineMeter{r: br, rec: r}
	defer m.release()
	c := &recorderConn{rec: r, rd: ndjson.NewReader(m, name)}
	for {
		l, err := c.rd.Next()
		if err != nil {
			if m.err != nil {
				return r.recorderFault(&ConnError{Conn: name, Line: c.line + 1, Err: m.err}, c.rd, br, m, report)
			}
			if errors.Is(err, io.EOF) || endOfInput(err) == nil {
				return nil
			}
			return r.recorderFault(err, c.rd, br, m, report)
		}
		c.line = l.No
		if err := c.handle(l); err != nil {
			return r.recorderFault(&ConnError{Conn: name, Line: l.No, Err: err}, c.rd, br, m, report)
		}
	}
}

// recorderFault counts a recorder stream's fault and passes it to report
// (when not nil), reads the rest of the stream counting its spans, and
// returns the fault.
func (r *Recording) recorderFault(err error, rd *ndjson.Reader, br *bufio.Reader, m *lineMeter, report func(error)) error {
	le := (*LimitError)(nil)
	shed := errors.As(err, &le) && le.Shed
	if shed {
		r.shed.Add(1)
	} else {
		r.protocolErrors.Add(1)
	}
	if report != nil {
		report(err)
	}
	if shed {
		r.discardCut(br, m)
		return err
	}
	r.discardRecorder(rd, br, m)
	return err
}

func (c *recorderConn) handle(l ndjson.Line) error {
	if c.benches == nil && l.Type != ndjson.TypeRecording {
		return fmt.Errorf("a recorder stream must begin with a recording record, not %q", l.Type)
	}
	if c.ended {
		return fmt.Errorf("a %s record after recording_end", l.Type)
	}
	switch l.Type {
	case ndjson.TypeRecording:
		return c.recording(l)
	case ndjson.TypeSpan:
		return c.span(l)
	case ndjson.TypeRecordingEnd:
		return c.end(l)
	}
	return nil // other records (process, ...) are not fb-record's
}

func (c *recorderConn) recording(l ndjson.Line) error {
	if c.benches != nil {
		return errors.New("a second recording record")
	}
	var rec ndjson.Recording
	if err := c.rd.Decode(l, &rec); err != nil {
		return err
	}
	if len(rec.Benchmarks) == 0 {
		return errors.New("the recording declares no benchmarks")
	}
	c.benches = make([]*Bench, len(rec.Benchmarks))
	c.sent = make([][numOutcomes]int64, len(rec.Benchmarks))
	for i, b := range rec.Benchmarks {
		if b.Index != i {
			return fmt.Errorf("benchmark %q has index %d, want %d", b.Name, b.Index, i)
		}
		if b.Name == "" || len(b.Name) > 256 {
			return fmt.Errorf("benchmark %d: a name of 1 to 256 bytes", i)
		}
		bench, err := c.rec.Bench([]byte(b.Name))
		if err != nil {
			return err
		}
		c.benches[i] = bench
	}
	c.offset = c.rec.Now()
	c.declared = map[string]bool{}
	for _, a := range rec.Axes {
		c.declared[a.Name] = true
	}
	return c.rec.addAxes(rec.Axes)
}

func (c *recorderConn) span(l ndjson.Line) error {
	var s ndjson.Span
	if err := c.rd.Decode(l, &s); err != nil {
		return err
	}
	if s.Benchmark < 0 || s.Benchmark >= len(c.benches) {
		return fmt.Errorf("span of benchmark %d, which the recording does not declare", s.Benchmark)
	}
	o, err := ParseOutcome([]byte(s.Outcome))
	if err != nil {
		return err
	}
	row := Row{StartNS: c.offset + s.StartNS, WallNS: -1, Outcome: o, Axes: c.keptAxes(s.Axes)}
	if s.WallNS != nil {
		if *s.WallNS < 0 {
			return fmt.Errorf("negative wall_ns %d", *s.WallNS)
		}
		row.WallNS = *s.WallNS
	}
	c.sent[s.Benchmark][o]++
	c.benches[s.Benchmark].finish(row)
	return nil
}

// end adds what the stream's tally counts beyond the spans it sent.
func (c *recorderConn) end(l ndjson.Line) error {
	var e ndjson.RecordingEnd
	if err := c.rd.Decode(l, &e); err != nil {
		return err
	}
	c.ended = true
	for _, t := range e.Benchmarks {
		if t.Index < 0 || t.Index >= len(c.benches) {
			return fmt.Errorf("tally of benchmark %d, which the recording does not declare", t.Index)
		}
		var extra [numOutcomes]int64
		var sent int64
		for o := range extra {
			sent += c.sent[t.Index][o]
			extra[o] = max(t.Outcomes[Outcome(o).String()]-c.sent[t.Index][o], 0)
		}
		c.benches[t.Index].upstream(max(t.Observed-sent, 0), extra, max(t.Unfinished, 0))
	}
	return nil
}

// keptAxes are the axes of a span its recording record declared, each
// reason clipped to MaxText bytes; the others are counted as dropped.
// A span whose axes are all declared and short keeps its map.
func (c *recorderConn) keptAxes(axes map[string]ndjson.AxisValue) map[string]ndjson.AxisValue {
	keep := true
	for name, v := range axes {
		if !c.declared[name] || len(v.R) > MaxText {
			keep = false
			break
		}
	}
	if keep {
		return axes
	}
	out := map[string]ndjson.AxisValue{}
	for name, v := range axes {
		if !c.declared[name] {
			c.rec.droppedAxes.Add(1)
			continue
		}
		v.R = clipString(v.R)
		out[name] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
