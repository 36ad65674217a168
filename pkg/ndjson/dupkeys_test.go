package ndjson

import (
	"fmt"
	"strings"
	"testing"
)

// TestDuplicateKeysRefused: a key given twice in one object is refused,
// where a decoder would silently keep the last value (flybench issue 21,
// item 7: a duplicate "verdict" flipped fb-check's outcome). Keys that a
// decoder matches to one field regardless of case, or spelled with an
// escape, are the same key.
func TestDuplicateKeysRefused(t *testing.T) {
	tests := []struct{ in, msg string }{
		{`{"type":"comparison","v":"1.7","verdict":"a","verdict":"b"}`, `duplicate key "verdict"`},
		{`{"a":{"x":1,"y":2,"x":3}}`, `duplicate key "x"`},
		{`{"n":1,"N":-5}`, `keys "n" and "N" name one field`},
		{`{"Verdict":"a","VERDICT":"b"}`, `keys "Verdict" and "VERDICT" name one field`},
		{`{"\u006e":1,"n":2}`, `duplicate key "n"`},
		{`{"a":[{"b":1,"b":1}]}`, `duplicate key "b"`},
		{`{"tags":{"a":"1","a":"2"}}`, `duplicate key "a"`},
		{`{"axes":{"x":{"s":"a","S":"b"}}}`, `keys "s" and "S" name one field`},
		{`{"cases":[{"params":{"a":"1"},"NAME":"x","name":"y"}]}`, `keys "NAME" and "name" name one field`},
	}
	var v validator
	for _, tc := range tests {
		p := v.check([]byte(tc.in))
		if p == nil || !strings.Contains(p.msg, tc.msg) {
			t.Errorf("%s: %v, want a fault %q", tc.in, p, tc.msg)
			continue
		}
		if p.off >= len(tc.in) {
			t.Errorf("%s: fault at the end (%d): only a line cut short fails there", tc.in, p.off)
		}
	}
}

// TestDistinctKeysAccepted: the same key in different objects, and map
// keys (axis names, tags) that differ only in case but name no field,
// are not duplicates.
func TestDistinctKeysAccepted(t *testing.T) {
	for _, in := range []string{
		`{"a":{"x":1},"b":{"x":2},"x":[{"x":1},{"x":2}]}`,
		`{"axes":{"Cyc":{"s":"collected"},"cyc":{"s":"collected"}}}`,
		`{"a":1,"b":{},"c":[],"d":{"a":{"a":{}}}}`,
		`{"x":{"a":1},"x2":{"a":1}}`,
		`{"params":{"n":"1","N":"2"},"tags":{"Case":"a","case":"b"}}`,
		`{"axes":{"N":{"s":"collected"},"n":{"s":"collected"}}}`,
	} {
		var v validator
		if p := v.check([]byte(in)); p != nil {
			t.Errorf("%s: %s at %d", in, p.msg, p.off)
		}
	}
}

// TestDuplicateKeysInLargeObject: an object of 40,000 keys is checked in
// linear time, and a duplicate among them is found.
func TestDuplicateKeysInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"span","v":"1.7","axes":{`)
	for i := range 40000 {
		fmt.Fprintf(&b, `"x%d":{"s":"collected","v":%d},`, i, i)
	}
	line := b.String()
	var v validator
	if p := v.check([]byte(line[:len(line)-1] + "}}")); p != nil {
		t.Fatalf("distinct keys refused: %s at %d", p.msg, p.off)
	}
	if p := v.check([]byte(line + `"x17":{"s":"collected"}}}`)); p == nil || !strings.Contains(p.msg, `duplicate key "x17"`) {
		t.Fatalf("duplicate among 40,000 keys: %v", p)
	}
}

// TestReaderRefusesDuplicateKey: through the reader, the refusal is a
// positioned syntax error at the second key.
func TestReaderRefusesDuplicateKey(t *testing.T) {
	second := `{"type":"end","v":"1.7","run_id":"a","units":3,"units":4}`
	in := `{"type":"run","v":"1.7","run_id":"a"}` + "\n" + second + "\n"
	r := NewReader(strings.NewReader(in), "d.ndjson")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err := r.Next()
	want := fmt.Sprintf(`d.ndjson:2: column %d: duplicate key "units": a reader would keep only the last value; write each key once`,
		strings.LastIndex(second, `"units"`)+1)
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}
