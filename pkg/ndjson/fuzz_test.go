package ndjson

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary bytes to the reader and every decoder. The
// reader must never panic, must report every failure as a positioned error,
// and must only hand out lines that decode or are valid JSON.
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
	}
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
			if err != nil {
				checkPositioned(t, err)
				return
			}
			if l.Type == "" || l.No < 1 {
				t.Fatalf("line without type or number: %+v", l)
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
