package ndjson

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// validCases are lines and whether they are JSON; ends marks lines that
// are the beginning of a JSON value cut short, which must fail at their end.
var validCases = []struct {
	in          string
	valid, ends bool
	// refused marks grammatical JSON the validator refuses: an unpaired
	// UTF-16 surrogate escape is not Unicode text, no writer of the
	// stream produces one, and goccy/go-json reads six bytes past a
	// string that ends in a lone first half
	refused bool
}{
	{`{}`, true, false, false},
	{` { "a" : [ 1 , -0.5e+3 , true , false , null , "x\"\\\/\b\f\n\r\t\u00e9" , {} , [] ] } `, true, false, false},
	{`{"a":"é😀"}`, true, false, false},
	{`{"a":[[[[]]]]}`, true, false, false},
	{`{"a":1E9,"b":0,"c":-0,"d":1.25e-7}`, true, false, false},
	{`{"a":"\ud800"}`, false, false, true},
	{`{"a":"\udc00x"}`, false, false, true},
	{`{"a":"\ud800\u0041"}`, false, false, true},
	{`{"\ud8a0"`, false, false, false}, // the key that took goccy/go-json past its input under -race
	{`{"a":"\ud83d`, false, true, false},
	{`{"a":"\ud83d\`, false, true, false},
	{`{"a":"\ud83d\ude0`, false, true, false},
	{`{"a":"\ud83d\ude00\uD83D\uDE00"}`, true, false, false},
	{"{\"a\":\"\x7f\"}", true, false, false},
	{`"x"`, true, false, false},
	{`{"tags":{"N":"1","n":"2"},"params":{"Case":"a","case":"b"},"x":{"N":1}}`, true, false, false},
	{`{"\29\`, false, false, false}, // the line that took goccy/go-json past its input
	{`{"\0d\`, false, false, false}, // goccy/go-json issue 577
	{"{\"\x00d\\", false, false, false},
	{`{"a":"\x41"}`, false, false, false},
	{`{"a":"\u12G4"}`, false, false, false},
	{"{\"a\":\"\t\"}", false, false, false},
	{"{\"a\":\"\xff\"}", false, false, false},
	{"{\"a\":\"\xed\xa0\x80\"}", false, false, false}, // a surrogate encoded as UTF-8
	{"{\"a\":\"\xc3(\"}", false, false, false},
	{`{"a":01}`, false, false, false},
	{`{"a":1.}`, false, false, false},
	{`{"a":.5}`, false, false, false},
	{`{"a":+1}`, false, false, false},
	{`{"a":1e}`, false, false, false},
	{`{"a":-}`, false, false, false},
	{`{"a":NaN}`, false, false, false},
	{`{"a":tru}`, false, false, false},
	{`{"a":1,}`, false, false, false},
	{`{"a" 1}`, false, false, false},
	{`{a:1}`, false, false, false},
	{`{"a":1}}`, false, false, false},
	{`{"a":1} x`, false, false, false},
	{`[1 2]`, false, false, false},
	{`{"a":[}`, false, false, false},
	{`{"a":1]`, false, false, false},
	{"{\"a\":1}\x00", false, false, false},
	{``, false, true, false},
	{`{`, false, true, false},
	{`{"a`, false, true, false},
	{`{"a"`, false, true, false},
	{`{"a":`, false, true, false},
	{`{"a":1`, false, true, false},
	{`{"a":-`, false, true, false},
	{`{"a":1.`, false, true, false},
	{`{"a":1e+`, false, true, false},
	{`{"a":t`, false, true, false},
	{`{"a":nul`, false, true, false},
	{`{"a":"\`, false, true, false},
	{`{"a":"\u00`, false, true, false},
	{"{\"a\":\"\xf0\x9f\x98", false, true, false},
	{`{"a":[1,`, false, true, false},
	{`{"a":{"b":{}`, false, true, false},
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
		if std := stdjson.Valid([]byte(tc.in)); std != (tc.valid || tc.refused) && utf8.ValidString(tc.in) {
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
		case p != nil && !p.dup && std && utf8.Valid(b) && !surrogateAt(b, p.off):
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

// surrogateAt reports whether b holds a \u escape of a UTF-16 surrogate
// at off: encoding/json decodes an unpaired one to U+FFFD, the validator
// refuses it.
func surrogateAt(b []byte, off int) bool {
	if off+6 > len(b) || b[off] != '\\' || b[off+1] != 'u' {
		return false
	}
	var u int
	_, err := fmt.Sscanf(string(b[off+2:off+6]), "%04x", &u)
	return err == nil && u >= 0xd800 && u <= 0xdfff
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
