package ndjson

import (
	"bytes"
	stdjson "encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// validCases are lines and whether they are JSON; ends marks lines that
// are the beginning of a JSON value cut short, which must fail at their end.
var validCases = []struct {
	in          string
	valid, ends bool
}{
	{`{}`, true, false},
	{` { "a" : [ 1 , -0.5e+3 , true , false , null , "x\"\\\/\b\f\n\r\t\u00e9" , {} , [] ] } `, true, false},
	{`{"a":"é😀"}`, true, false},
	{`{"a":[[[[]]]]}`, true, false},
	{`{"a":1E9,"b":0,"c":-0,"d":1.25e-7}`, true, false},
	{`{"a":"\ud800"}`, true, false}, // a lone surrogate escape is grammatical JSON
	{"{\"a\":\"\x7f\"}", true, false},
	{`"x"`, true, false},
	{`{"tags":{"N":"1","n":"2"},"params":{"Case":"a","case":"b"},"x":{"N":1}}`, true, false},
	{`{"\29\`, false, false}, // the line that took goccy/go-json past its input
	{`{"\0d\`, false, false}, // goccy/go-json issue 577
	{"{\"\x00d\\", false, false},
	{`{"a":"\x41"}`, false, false},
	{`{"a":"\u12G4"}`, false, false},
	{"{\"a\":\"\t\"}", false, false},
	{"{\"a\":\"\xff\"}", false, false},
	{"{\"a\":\"\xed\xa0\x80\"}", false, false}, // a surrogate encoded as UTF-8
	{"{\"a\":\"\xc3(\"}", false, false},
	{`{"a":01}`, false, false},
	{`{"a":1.}`, false, false},
	{`{"a":.5}`, false, false},
	{`{"a":+1}`, false, false},
	{`{"a":1e}`, false, false},
	{`{"a":-}`, false, false},
	{`{"a":NaN}`, false, false},
	{`{"a":tru}`, false, false},
	{`{"a":1,}`, false, false},
	{`{"a" 1}`, false, false},
	{`{a:1}`, false, false},
	{`{"a":1}}`, false, false},
	{`{"a":1} x`, false, false},
	{`[1 2]`, false, false},
	{`{"a":[}`, false, false},
	{`{"a":1]`, false, false},
	{"{\"a\":1}\x00", false, false},
	{``, false, true},
	{`{`, false, true},
	{`{"a`, false, true},
	{`{"a"`, false, true},
	{`{"a":`, false, true},
	{`{"a":1`, false, true},
	{`{"a":-`, false, true},
	{`{"a":1.`, false, true},
	{`{"a":1e+`, false, true},
	{`{"a":t`, false, true},
	{`{"a":nul`, false, true},
	{`{"a":"\`, false, true},
	{`{"a":"\u00`, false, true},
	{"{\"a\":\"\xf0\x9f\x98", false, true},
	{`{"a":[1,`, false, true},
	{`{"a":{"b":{}`, false, true},
}

func TestValidator(t *testing.T) {
	var v validator
	for _, tc := range validCases {
		p := v.check([]byte(tc.in))
		if (p == nil) != tc.valid {
			t.Errorf("%q: valid %v, want %v (%v)", tc.in, p == nil, tc.valid, p)
			continue
		}
		if p != nil && (p.off == len(tc.in)) != tc.ends {
			t.Errorf("%q: fault at %d (%s); a line cut short must fail at its end and only such a line", tc.in, p.off, p.msg)
		}
		if std := stdjson.Valid([]byte(tc.in)); std != tc.valid && utf8.ValidString(tc.in) {
			t.Errorf("%q: encoding/json says valid %v", tc.in, std)
		}
	}
}

func TestValidatorDepth(t *testing.T) {
	var v validator
	ok := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if p := v.check([]byte(ok)); p != nil {
		t.Fatalf("depth %d: %v", maxDepth, p.msg)
	}
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if p := v.check([]byte(deep)); p == nil || !strings.Contains(p.msg, "nested deeper") {
		t.Fatalf("depth %d accepted: %v", maxDepth+1, p)
	}
}

// FuzzValidator compares the validator with encoding/json, which accepts
// invalid UTF-8 in strings and keys given twice but is otherwise the same
// grammar, checks that a key is refused as given twice exactly when it is
// (dupKeyOracle), and that every prefix of a valid object or array fails
// at its end.
func FuzzValidator(f *testing.F) {
	for _, tc := range validCases {
		f.Add([]byte(tc.in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v validator
		p := v.check(b)
		std := stdjson.Valid(b)
		switch {
		case p == nil && !std:
			t.Fatalf("%q accepted; encoding/json refuses it", b)
		case p != nil && !p.dup && std && utf8.Valid(b):
			t.Fatalf("%q refused (%s at %d); encoding/json accepts it", b, p.msg, p.off)
		case std && utf8.Valid(b) && (p != nil && p.dup) != dupKeyOracle(b):
			t.Fatalf("%q: refused for a repeated key %v (%v), the oracle says %v", b, p != nil, p, dupKeyOracle(b))
		case p != nil && (p.off < 0 || p.off > len(b)):
			t.Fatalf("%q: fault offset %d out of range", b, p.off)
		}
		trimmed := strings.Trim(string(b), " \t\r\n")
		if p != nil || trimmed[0] != '{' && trimmed[0] != '[' {
			return // a prefix of a number can be a number
		}
		for n := 0; n < len(trimmed); n++ {
			if q := v.check([]byte(trimmed[:n])); q == nil || q.off != n {
				t.Fatalf("prefix %q of %q: %v; a line cut short must fail at its end", trimmed[:n], b, q)
			}
		}
	})
}

// dupKeyOracle reports whether an object in b, valid JSON, holds a key
// twice as encoding/json reads keys (escapes decoded), names of schema
// fields compared regardless of ASCII case except in the objects that are
// the value of a map field of the schema.
func dupKeyOracle(b []byte) bool {
	dec := stdjson.NewDecoder(bytes.NewReader(b))
	type frame struct {
		keys      map[string]bool // nil in an array
		expectKey bool
		isMap     bool
		lastKey   string
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		inObject := top != nil && top.keys != nil
		switch tok {
		case stdjson.Delim('{'), stdjson.Delim('['):
			isMap := inObject && !top.isMap && schemaMaps()[top.lastKey]
			if inObject {
				top.expectKey = true
			}
			f := &frame{isMap: isMap}
			if tok == stdjson.Delim('{') {
				f.keys, f.expectKey = map[string]bool{}, true
			}
			stack = append(stack, f)
			continue
		case stdjson.Delim('}'), stdjson.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		}
		if !inObject {
			continue
		}
		if !top.expectKey {
			top.expectKey = true
			continue
		}
		k := tok.(string)
		if lower := strings.ToLower(k); !top.isMap && isASCII([]byte(k)) && schemaFields()[lower] {
			k = lower
		}
		if top.keys[k] {
			return true
		}
		top.keys[k], top.expectKey, top.lastKey = true, false, k
	}
}

var benchLine = []byte(`{"type":"sample","v":"1.3","case":1,"unit":4812,"pos":0,"seq":9624,"iter":1000,"wall_ns":1093000,"op_ns":1093.0421}`)

func BenchmarkValidator(b *testing.B) {
	var v validator
	b.SetBytes(int64(len(benchLine)))
	for b.Loop() {
		if v.check(benchLine) != nil {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkValidatorStdlib(b *testing.B) {
	b.SetBytes(int64(len(benchLine)))
	for b.Loop() {
		if !stdjson.Valid(benchLine) {
			b.Fatal("invalid")
		}
	}
}
