package ndjson

import (
	"fmt"
	"unicode/utf8"
)

// maxDepth bounds the nesting of arrays and objects in a line, as the
// decoders behind this package bound it themselves.
const maxDepth = 10000

// syntaxPos is where and why a line is not JSON: off is the byte offset
// of the fault. A line that is the beginning of a JSON value, cut short,
// fails at its end (off == len(line)) and only such a line does.
type syntaxPos struct {
	off int
	msg string
	// dup marks a key given twice in one object: grammatical JSON, but
	// a record no decoder reads as written.
	dup bool
}

// validator checks that a line is exactly one JSON value as RFC 8259
// defines it: strict UTF-8, only the escapes JSON has, numbers in JSON's
// grammar, nesting within maxDepth, and no object holding one key twice
// (dupkeys.go). It is the only code that looks at a
// line's bytes before it is known to be JSON; every decoder behind it (the
// general one reads past the end of a malformed escape, goccy/go-json
// issues 575 and 577) sees only lines it accepted. It keeps its nesting
// stack between lines, so a stream of lines allocates nothing.
type validator struct {
	stack []byte // the open '{' and '[', innermost last
	// keys are the member names of the open objects, innermost last;
	// marks[i] is where the i-th open object's begin, sets[i] their map
	// once it has bigObject of them.
	keys  []key
	marks []int
	sets  []map[string]int
	maps  []bool
	// mapNext says the value after the member name just read is a map.
	mapNext bool
}

// strPlain marks the bytes a string may hold as they are: printable ASCII
// other than the quote and the backslash.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// check returns nil when b is one JSON value, with only JSON whitespace
// around it, or where and why it is not. It is one loop over the line
// (gotos between the states: a value, a member name, after a value), as
// it runs on every line of every stream.
func (v *validator) check(b []byte) *syntaxPos {
	v.stack, v.keys, v.marks, v.maps, v.mapNext = v.stack[:0], v.keys[:0], v.marks[:0], v.maps[:0], false
	clear(v.sets)
	v.sets = v.sets[:0]
	var err *syntaxPos
	i := 0
value: // a value starts at i, after optional whitespace
	i = skipSpace(b, i)
	isMap := v.mapNext
	v.mapNext = false
	if i == len(b) {
		return at(i, "unexpected end of line")
	}
	switch c := b[i]; c {
	case '"':
		if i, err = str(b, i); err != nil {
			return err
		}
	case '{', '[':
		if len(v.stack) == maxDepth {
			return at(i, fmt.Sprintf("nested deeper than %d", maxDepth))
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == closer(c) {
			i++
			break
		}
		v.stack = append(v.stack, c)
		if c == '[' {
			goto value
		}
		v.openObject(isMap)
		goto name
	case 't':
		i, err = literal(b, i, "true")
	case 'f':
		i, err = literal(b, i, "false")
	case 'n':
		i, err = literal(b, i, "null")
	default:
		if c != '-' && (c < '0' || c > '9') {
			return at(i, "unexpected "+show(c))
		}
		i, err = number(b, i)
	}
	if err != nil {
		return err
	}
after: // a value ended before i: close what is open, or find the next element
	i = skipSpace(b, i)
	if len(v.stack) == 0 {
		if i != len(b) {
			return at(i, "data after the JSON value")
		}
		return nil
	}
	if i == len(b) {
		return at(i, "unexpected end of line")
	}
	switch top := v.stack[len(v.stack)-1]; b[i] {
	case ',':
		i++
		if top == '[' {
			goto value
		}
		i = skipSpace(b, i)
		goto name
	case closer(top):
		v.stack = v.stack[:len(v.stack)-1]
		if top == '{' {
			v.closeObject()
		}
		i++
		goto after
	default:
		return at(i, fmt.Sprintf("expected ',' or '%c', found %s", closer(top), show(b[i])))
	}
name: // an object member's name starts at i
	if i == len(b) || b[i] != '"' {
		return at(i, "expected a member name in quotes, found "+showAt(b, i))
	}
	start := i
	if i, err = str(b, i); err != nil {
		return err
	}
	if err = v.addKey(b, start, i); err != nil {
		return err
	}
	i = skipSpace(b, i)
	if i == len(b) || b[i] != ':' {
		return at(i, "expected ':' after a member name, found "+showAt(b, i))
	}
	i++
	goto value
}

// str reads the string whose opening quote is at i.
func str(b []byte, i int) (int, *syntaxPos) {
	for i++; ; {
		for i < len(b) && strPlain[b[i]] {
			i++
		}
		if i == len(b) {
			return i, at(i, "unterminated string")
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			n, err := escape(b, i)
			if err != nil {
				return i, err
			}
			i += n
		case c < 0x20:
			return i, at(i, fmt.Sprintf("control character 0x%02x in a string", c))
		default:
			if !utf8.FullRune(b[i:]) {
				return i, at(len(b), "unterminated string")
			}
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return i, at(i, fmt.Sprintf("invalid UTF-8 byte 0x%02x in a string", c))
			}
			i += n
		}
	}
}

// escape checks the escape sequence at b[i] == '\\' and returns its length.
func escape(b []byte, i int) (int, *syntaxPos) {
	if i+1 == len(b) {
		return 0, at(len(b), "unterminated escape")
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
		u, err := hex4(b, i)
		if err != nil {
			return 0, err
		}
		switch {
		case u >= 0xdc00 && u <= 0xdfff:
			return 0, at(i, fmt.Sprintf(`\u%04x is the second half of a UTF-16 surrogate pair without its first: not Unicode text`, u))
		case u >= 0xd800 && u <= 0xdbff:
			// the first half of a pair must be followed by its second;
			// goccy/go-json reads six bytes past a string ending in a
			// lone first half
			j := i + 6
			switch {
			case j == len(b) || j+1 == len(b) && b[j] == '\\':
				return 0, at(len(b), "unterminated surrogate pair")
			case b[j] == '\\' && b[j+1] == 'u':
				v, err := hex4(b, j)
				if err != nil {
					return 0, err
				}
				if v >= 0xdc00 && v <= 0xdfff {
					return 12, nil
				}
			}
			return 0, at(i, fmt.Sprintf(`\u%04x is the first half of a UTF-16 surrogate pair without its second: not Unicode text`, u))
		}
		return 6, nil
	}
	return 0, at(i, fmt.Sprintf(`invalid escape \%s`, printable(b[i+1])))
}

// hex4 reads the four hexadecimal digits of the \u escape at b[i].
func hex4(b []byte, i int) (rune, *syntaxPos) {
	var u rune
	for k := i + 2; k < i+6; k++ {
		if k == len(b) {
			return 0, at(k, `unterminated \u escape`)
		}
		if !isHex(b[k]) {
			return 0, at(i, `\u needs four hexadecimal digits`)
		}
		d := rune(b[k])
		switch {
		case d >= 'a':
			d -= 'a' - 10
		case d >= 'A':
			d -= 'A' - 10
		default:
			d -= '0'
		}
		u = u<<4 | d
	}
	return u, nil
}

// number reads a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func number(b []byte, i int) (int, *syntaxPos) {
	start := i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, needDigit(b, i, start, "after its sign")
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return i, needDigit(b, j, start, "after its decimal point")
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return i, needDigit(b, j, start, "in its exponent")
		}
		i = j
	}
	return i, nil
}

// needDigit is the fault of a number that lacks a digit at i: the end of
// the line, or the number's start.
func needDigit(b []byte, i, start int, where string) *syntaxPos {
	if i == len(b) {
		start = i
	}
	return at(start, "a number needs a digit "+where)
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func literal(b []byte, i int, word string) (int, *syntaxPos) {
	n := min(len(word), len(b)-i)
	if string(b[i:i+n]) != word[:n] {
		return i, at(i, "unexpected "+show(b[i]))
	}
	if n < len(word) {
		return i, at(len(b), "unexpected end of line")
	}
	return i + n, nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func closer(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

func at(i int, msg string) *syntaxPos { return &syntaxPos{off: i, msg: msg} }

// showAt names the byte at i, or the end of the line.
func showAt(b []byte, i int) string {
	if i == len(b) {
		return "the end of the line"
	}
	return show(b[i])
}

// show names a byte for a message: 'x' when printable, else its value.
func show(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("'%c'", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func printable(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(c)
	}
	return fmt.Sprintf("(byte 0x%02x)", c)
}
