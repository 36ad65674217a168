package ndjson

import (
	"strings"
	"testing"
)

// TestDecodeErrorNamesField: a record that is JSON but whose value does
// not fit its field says which field holds what, and what it takes
// (flybench issue 21, item 10). The decoder's own messages named a type
// by a quote ("cannot unmarshal number \" into ... int") or nothing at
// all ("unexpected end of JSON input", "expected comma").
func TestDecodeErrorNamesField(t *testing.T) {
	head := `{"type":"sample","v":"1.7",`
	tests := []struct{ body, want string }{
		{`"case":"one"}`, `bad sample record: field "case" is the string "one": want an integer`},
		{`"op_ns":"NaN"}`, `bad sample record: field "op_ns" is the string "NaN": want a number`},
		{`"op_ns":1e999}`, `bad sample record: field "op_ns" is 1e999: out of range of a 64-bit floating-point number`},
		{`"unit":1.5}`, `bad sample record: field "unit" is 1.5: want an integer`},
		{`"unit":99999999999999999999}`, `bad sample record: field "unit" is 99999999999999999999: out of range of a 64-bit integer`},
		{`"axes":{"cycles":{"s":"collected","v":"x"}}}`, `bad sample record: field "axes.cycles.v" is the string "x": want a number`},
		{`"proc":{"block":true}}`, `bad sample record: field "proc.block" is true: want an integer`},
		{`"axes":[1]}`, `bad sample record: field "axes" is an array: want an object`},
		{`"iter":-3e400}`, `bad sample record: field "iter" is -3e400: out of range of a 64-bit integer`},
	}
	for _, tc := range tests {
		r := NewReader(strings.NewReader(head+tc.body+"\n"), "s.ndjson")
		l, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		var s Sample
		err = r.Decode(l, &s)
		if err == nil || err.Error() != "s.ndjson:1: "+tc.want {
			t.Errorf("%s:\n got %v\nwant s.ndjson:1: %s", tc.body, err, tc.want)
		}
	}
}

// TestDecodeErrorPathInArrays names array elements by index.
func TestDecodeErrorPathInArrays(t *testing.T) {
	line := `{"type":"comparison","v":"1.7","axes":[{},{"result":{"ci":[1,"x"]}}]}`
	r := NewReader(strings.NewReader(line+"\n"), "c")
	l, _ := r.Next()
	var c Comparison
	err := r.Decode(l, &c)
	want := `c:1: bad comparison record: field "axes[1].result.ci[1]" is the string "x": want a number`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}
