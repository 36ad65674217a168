package ndjson

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// fieldError says which field of a record holds a value that does not
// fit it, and what it takes: `field "op_ns" is the string "NaN": want a
// number`. The fast decoder's own messages name neither (goccy/go-json
// says "expected comma after object element" of 1.5 in an integer), so a
// line it refuses is decoded once more by encoding/json, whose type error
// gives the offset of the value; the line is then walked to that offset
// for the field's path and the value's text. It returns "" when that
// decoder finds no such fault, and the caller keeps the first message.
func fieldError(raw []byte, v any) string {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return ""
	}
	err := stdjson.Unmarshal(raw, reflect.New(t.Elem()).Interface())
	var te *stdjson.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return ""
	}
	path, value, ok := valueAt(raw, te.Offset)
	if !ok || path == "" {
		return ""
	}
	return fmt.Sprintf("field %q is %s: %s", path, value.describe(), want(value, te.Type))
}

// token is a JSON value as the walk found it: its kind, and its text for
// a string, a number or a literal.
type token struct {
	kind string // "string", "number", "literal", "object", "array"
	text string
}

func (k token) describe() string {
	switch k.kind {
	case "string":
		return "the string " + strconv.Quote(clipText(k.text))
	case "object":
		return "an object"
	case "array":
		return "an array"
	}
	return clipText(k.text)
}

// want says what a Go type takes, or why a number is out of its range.
func want(k token, t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return wantInteger(k, t.Bits(), false)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return wantInteger(k, t.Bits(), true)
	case reflect.Float32, reflect.Float64:
		if k.kind == "number" {
			return fmt.Sprintf("out of range of a %d-bit floating-point number", t.Bits())
		}
		return "want a number"
	case reflect.String:
		return "want a string"
	case reflect.Bool:
		return "want true or false"
	case reflect.Slice, reflect.Array:
		return "want an array"
	}
	return "want an object"
}

// wantInteger tells a number too large for an integer type of bits bits
// from one that is not a whole number, negative for an unsigned type,
// or not a number at all.
func wantInteger(k token, bits int, unsigned bool) string {
	what, ranged := "an integer", fmt.Sprintf("a %d-bit integer", bits)
	if unsigned {
		what, ranged = "a non-negative integer", fmt.Sprintf("a %d-bit non-negative integer", bits)
	}
	if k.kind != "number" {
		return "want " + what
	}
	f, _ := strconv.ParseFloat(k.text, 64)
	whole := !strings.ContainsAny(k.text, ".eE")
	switch {
	case unsigned && f < 0:
		return "want " + what
	case whole || math.Abs(f) >= math.Ldexp(1, bits-1):
		return "out of range of " + ranged
	}
	return "want " + what
}

// clipText keeps an echoed value short.
func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// frame is one open object or array of the walk.
type frame struct {
	object    bool
	expectKey bool
	key       string
	index     int
}

// valueAt walks raw, a JSON object, to the value that ends at byte off
// and returns its path ("axes.cycles.v", "axes[1].result.ci[0]") and the
// value.
func valueAt(raw []byte, off int64) (string, token, bool) {
	dec := stdjson.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", token{}, false
		}
		end := dec.InputOffset()
		if d, ok := tok.(stdjson.Delim); ok {
			if d == '}' || d == ']' {
				stack = stack[:len(stack)-1]
				advance(stack)
				continue
			}
			if end >= off && len(stack) > 0 {
				kind := map[stdjson.Delim]string{'{': "object", '[': "array"}[d]
				return pathOf(stack), token{kind: kind}, true
			}
			stack = append(stack, frame{object: d == '{', expectKey: d == '{'})
			continue
		}
		if len(stack) == 0 {
			return "", token{}, false
		}
		if top := &stack[len(stack)-1]; top.object && top.expectKey {
			top.key, top.expectKey = tok.(string), false
			continue
		}
		if end >= off {
			return pathOf(stack), scalar(tok), true
		}
		advance(stack)
	}
}

// advance moves the innermost frame past one value.
func advance(stack []frame) {
	if len(stack) == 0 {
		return
	}
	top := &stack[len(stack)-1]
	if top.object {
		top.expectKey = true
	} else {
		top.index++
	}
}

func pathOf(stack []frame) string {
	var b strings.Builder
	for i, f := range stack {
		switch {
		case !f.object:
			fmt.Fprintf(&b, "[%d]", f.index)
		case i > 0:
			b.WriteString("." + f.key)
		default:
			b.WriteString(f.key)
		}
	}
	return b.String()
}

func scalar(tok any) token {
	switch v := tok.(type) {
	case string:
		return token{kind: "string", text: v}
	case stdjson.Number:
		return token{kind: "number", text: string(v)}
	}
	return token{kind: "literal", text: fmt.Sprint(tok)}
}
