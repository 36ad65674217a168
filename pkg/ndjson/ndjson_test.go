package ndjson

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestWriteReadRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	run := &Run{RunID: "r1", Tool: "fb-pair", Design: DesignPaired, Cases: []Case{{Index: 0, Name: "a <&>", Argv: []string{"a"}}}}
	if err := w.Write(run); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(&Sample{Case: 1, Unit: 2, Iter: 3, WallNS: 300, OpNS: 100}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, `{"type":"run","v":"1.7","run_id":"r1"`) {
		t.Fatalf("header not first: %s", out)
	}
	if strings.Count(out, "\n") != 2 || !strings.HasSuffix(out, "\n") {
		t.Fatalf("want two whole lines, got %q", out)
	}
	if !strings.Contains(out, `"a <&>"`) {
		t.Fatalf("HTML escaping should be off: %s", out)
	}
	r := NewReader(&buf, "x.ndjson")
	l, err := r.Next()
	if err != nil || l.Type != TypeRun || l.V != Version || l.No != 1 {
		t.Fatalf("first line = %+v, %v", l, err)
	}
	var got Run
	if err := r.Decode(l, &got); err != nil || got.Cases[0].Name != "a <&>" {
		t.Fatalf("decode run: %+v %v", got, err)
	}
	l, err = r.Next()
	if err != nil || l.Type != TypeSample {
		t.Fatalf("second line = %+v, %v", l, err)
	}
	var s Sample
	if err := r.Decode(l, &s); err != nil || s.WallNS != 300 || s.Case != 1 || s.OpNS != 100 {
		t.Fatalf("decode sample: %+v %v", s, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

func TestReaderErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"not object", "{\"type\":\"run\",\"v\":\"1.0\"}\n[1,2]\n", "in.ndjson:2: not a JSON object"},
		{"bad json", "\n\n{\"type\":\"x\",\"v\":\"1.0\",}\n", "in.ndjson:3: invalid JSON"},
		{"truncated", "{\"type\":\"sample\",\"v\":\"1.0\",\"case\":1\n", "in.ndjson:1: invalid JSON"},
		{"no type", "{\"v\":\"1.0\"}\n", `in.ndjson:1: record has no "type" field`},
		{"no version", "{\"type\":\"run\"}\n", `in.ndjson:1: run record has no schema version field "v"`},
		{"unknown major", "{\"type\":\"run\",\"v\":\"2.3\"}\n", "in.ndjson:1: stream schema version 2.3 is not supported by this reader (schema 1.7)"},
		{"garbage version", "{\"type\":\"run\",\"v\":\"one\"}\n", "schema version one is not supported"},
		{"unknown type invalid", "{\"type\":\"zzz\",\"v\":\"1.0\",\"a\":tru}\n", "in.ndjson:1: invalid JSON at column 29: unexpected 't'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tc.input), "in.ndjson")
			var err error
			for err == nil {
				_, err = r.Next()
			}
			if err == io.EOF || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestVersionErrorNamesBothVersions(t *testing.T) {
	r := NewReader(strings.NewReader(`{"type":"sample","v":"7.1"}`), "")
	_, err := r.Next()
	var ve *VersionError
	if !errors.As(err, &ve) || ve.Found != "7.1" || ve.Line != 1 || ve.File != "<stdin>" {
		t.Fatalf("got %#v", err)
	}
	if !strings.Contains(err.Error(), "7.1") || !strings.Contains(err.Error(), Version) {
		t.Fatalf("message must name both versions: %v", err)
	}
}

func TestMinorVersionsAndUnknownTypesPass(t *testing.T) {
	in := `{"type":"future","v":"1.9","x":[1,{"y":null}]}` + "\n" + `{"v":"1.2","type":"sample","case":0}` + "\n"
	r := NewReader(strings.NewReader(in), "f")
	l, err := r.Next()
	if err != nil || l.Type != "future" || Known(l.Type) {
		t.Fatalf("unknown type: %+v %v", l, err)
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf).WriteRaw(l.Raw); err != nil || buf.String() != `{"type":"future","v":"1.9","x":[1,{"y":null}]}`+"\n" {
		t.Fatalf("pass-through changed the line: %q %v", buf.String(), err)
	}
	// Fields in another order take the slow path and still parse.
	l, err = r.Next()
	if err != nil || l.Type != TypeSample || l.V != "1.2" {
		t.Fatalf("reordered header: %+v %v", l, err)
	}
}

func TestDecodeErrorHasPosition(t *testing.T) {
	r := NewReader(strings.NewReader("{\"type\":\"sample\",\"v\":\"1.0\",\"case\":\"zero\"}\n"), "s.ndjson")
	l, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	var s Sample
	err = r.Decode(l, &s)
	if err == nil || !strings.HasPrefix(err.Error(), "s.ndjson:1: bad sample record") {
		t.Fatalf("got %v", err)
	}
}

func TestLongLine(t *testing.T) {
	long := `{"type":"x","v":"1.2","pad":"` + strings.Repeat("a", MaxLineBytes) + `"}`
	r := NewReader(strings.NewReader(long), "big")
	_, err := r.Next()
	if err == nil || !strings.Contains(err.Error(), "big:1: line longer than") {
		t.Fatalf("got %v", err)
	}
}

// A writer killed mid-stream leaves whole lines: every Write is a single
// call to the underlying writer ending in a newline.
func TestOneWritePerRecord(t *testing.T) {
	var cw countingWriter
	w := NewWriter(&cw)
	for i := 0; i < 3; i++ {
		if err := w.Write(&End{Reason: EndCompleted, Samples: []int{i}}); err != nil {
			t.Fatal(err)
		}
	}
	if len(cw.writes) != 3 {
		t.Fatalf("%d writes for 3 records", len(cw.writes))
	}
	for _, b := range cw.writes {
		if bytes.Count(b, []byte("\n")) != 1 || b[len(b)-1] != '\n' {
			t.Fatalf("write is not one whole line: %q", b)
		}
	}
}

type countingWriter struct{ writes [][]byte }

func (c *countingWriter) Write(b []byte) (int, error) {
	c.writes = append(c.writes, append([]byte(nil), b...))
	return len(b), nil
}
