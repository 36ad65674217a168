package ndjson

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// malformedEscapes once took goccy/go-json's decoder past the end of its
// input: under -race (checkptr) the process died with "pointer arithmetic
// result points to invalid allocation". The first is the 6-byte stream of
// flybench issue 9, the second goccy/go-json issue 577's input (its issue
// 575 is the first), the rest its neighbours.
var malformedEscapes = []string{
	`{"\29\`,
	`{"\0d\`,
	"{\"\x00d\\",
	`{"hAs\`,
	`{"type":"run","v":"1.3","run_id":"\29\`,
	`{"type":"run","v":"1.3","\u12`,
	`{"type":"sample","v":"1.3","case":0,"\`,
}

// TestMalformedEscapes: none of them reaches a decoder, as the last line
// of a stream, with its newline or in the middle, nor through Decode.
func TestMalformedEscapes(t *testing.T) {
	for _, in := range malformedEscapes {
		for _, stream := range []string{in, in + "\n", in + "\n{\"type\":\"x\",\"v\":\"1.3\"}\n"} {
			r := NewReader(strings.NewReader(stream), "in")
			_, err := r.Next()
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line != 1 {
				t.Errorf("%q: %v, want a syntax error at line 1", stream, err)
			}
		}
		var run Run
		err := NewReader(strings.NewReader(""), "in").Decode(Line{No: 1, Type: TypeRun, Raw: []byte(in)}, &run)
		if err == nil || !strings.Contains(err.Error(), "in:1: invalid JSON") {
			t.Errorf("Decode(%q) = %v, want invalid JSON", in, err)
		}
	}
}

// FuzzReader feeds arbitrary bytes to the reader and every decoder. The
// reader must never panic, must report every failure as a positioned error,
// must only hand out lines that are JSON, and may call a line torn only
// when it is the last, without a newline.
func FuzzReader(f *testing.F) {
	seeds := []string{
		`{"type":"run","v":"1.0","run_id":"x","cases":[{"index":0,"name":"a","argv":["a"]}]}`,
		`{"type":"sample","v":"1.0","case":0,"unit":0,"pos":1,"seq":2,"iter":3,"wall_ns":4,"op_ns":1.5}`,
		`{"type":"end","v":"1.0","reason":"completed","samples":[1,2]}`,
		`{"type":"comparison","v":"1.0","speedup_ci":[1,2]}`,
		`{"v":"1.0","type":"future"}`,
		`{"type":"run","v":"2.0"}`,
		"{\"type\":\"a\\\"b\",\"v\":\"1.0\"}",
		"[]", "{", "\xff\xfe", "\n\n",
		"{\"type\":\"end\",\"v\":\"1.3\",\"run_id\":\"x\",\"rea",
	}
	seeds = append(seeds, malformedEscapes...)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data), "fuzz")
		for i := 0; i < 1000; i++ {
			l, err := r.Next()
			if err == io.EOF {
				return
			}
			var torn *TornError
			if errors.As(err, &torn) {
				checkTorn(t, data, torn)
				if _, err := r.Next(); err != io.EOF {
					t.Fatalf("after a torn line: %v, want EOF", err)
				}
				return
			}
			if err != nil {
				checkPositioned(t, err)
				return
			}
			if l.Type == "" || l.No < 1 {
				t.Fatalf("line without type or number: %+v", l)
			}
			if !stdjson.Valid(l.Raw) || !utf8.Valid(l.Raw) {
				t.Fatalf("line %d is not JSON: %q", l.No, l.Raw)
			}
			if err := decodeKnown(r, l); err != nil {
				checkPositioned(t, err)
			}
		}
	})
}

func decodeKnown(r *Reader, l Line) error {
	var v any
	switch l.Type {
	case TypeRun:
		v = &Run{}
	case TypeCalibration:
		v = &Calibration{}
	case TypeSample:
		v = &Sample{}
	case TypeEnd:
		v = &End{}
	case TypeAnalysis:
		v = &Analysis{}
	case TypeSummary:
		v = &Summary{}
	case TypeComparison:
		v = &Comparison{}
	default:
		return nil
	}
	return r.Decode(l, v)
}

// checkTorn: a torn line is the input's last, without a newline.
func checkTorn(t *testing.T, data []byte, torn *TornError) {
	t.Helper()
	if len(data) == 0 || data[len(data)-1] == '\n' || torn.Line != bytes.Count(data, []byte("\n"))+1 {
		t.Fatalf("line %d called torn in %q", torn.Line, data)
	}
	var se *SyntaxError
	if !errors.As(torn, &se) || se.Line != torn.Line {
		t.Fatalf("torn error does not unwrap to its syntax error: %v", torn)
	}
}

func checkPositioned(t *testing.T, err error) {
	t.Helper()
	var se *SyntaxError
	var ve *VersionError
	switch {
	case errors.As(err, &se):
		if se.Line < 1 || strings.Contains(se.Msg, "\n") {
			t.Fatalf("bad syntax error: %q", err)
		}
	case errors.As(err, &ve):
	default:
		t.Fatalf("unpositioned error %T: %v", err, err)
	}
}
