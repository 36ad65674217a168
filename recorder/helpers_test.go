package recorder

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
)

// recording is a stream the recorder wrote, decoded with pkg/ndjson's
// reader and its types, refusing fields the types do not have.
type recording struct {
	head  ndjson.Recording
	spans []ndjson.Span
	end   ndjson.RecordingEnd
}

// decode reads out record by record and checks the stream's shape: one
// recording record first, spans, one recording_end record last.
func decode(t *testing.T, out []byte) recording {
	t.Helper()
	var got recording
	rd := ndjson.NewReader(bytes.NewReader(out), "recording")
	var types []string
	for {
		l, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, l.Type)
		var v any
		switch l.Type {
		case ndjson.TypeRecording:
			v = &got.head
		case ndjson.TypeSpan:
			got.spans = append(got.spans, ndjson.Span{})
			v = &got.spans[len(got.spans)-1]
		case ndjson.TypeRecordingEnd:
			v = &got.end
		default:
			t.Fatalf("line %d: unexpected record type %q", l.No, l.Type)
		}
		if err := rd.Decode(l, v); err != nil {
			t.Fatal(err)
		}
		strict(t, l, v)
	}
	if len(types) < 2 || types[0] != ndjson.TypeRecording || types[len(types)-1] != ndjson.TypeRecordingEnd {
		t.Fatalf("record types %v: want recording, spans, recording_end", types)
	}
	return got
}

// strict decodes l again, refusing unknown fields, so a field the stream's
// types do not know cannot pass unnoticed.
func strict(t *testing.T, l ndjson.Line, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(l.Raw))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		t.Fatalf("line %d: %v\n%s", l.No, err, l.Raw)
	}
}

// fakeClock is a monotonic clock that advances by step at every read.
type fakeClock struct{ t, step int64 }

func (c *fakeClock) now() int64 { c.t += c.step; return c.t }

// started is a recorder with the given options writing into a buffer,
// with benchmarks registered under names and started.
func started(t *testing.T, opts Options, names ...string) (*Recorder, []*Benchmark, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	opts.Out = &buf
	r := New(opts)
	var bs []*Benchmark
	for _, n := range names {
		bs = append(bs, r.Register(n))
	}
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	return r, bs, &buf
}

// stop stops r and decodes what it wrote.
func stop(t *testing.T, r *Recorder, buf *bytes.Buffer) recording {
	t.Helper()
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	return decode(t, buf.Bytes())
}

// obsOf lists the observation numbers of benchmark b's spans.
func obsOf(spans []ndjson.Span, b int) []int64 {
	var out []int64
	for _, s := range spans {
		if s.Benchmark == b {
			out = append(out, s.Obs)
		}
	}
	return out
}
