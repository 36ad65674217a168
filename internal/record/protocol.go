// Package record is fb-record's engine: it receives spans over the span
// protocol (man fb-span(7)) or as the recorder package's NDJSON stream,
// keeps a bounded, named retention of them per benchmark, counts every
// observation, and writes the recording as an fb-stream(5) stream when
// it ends.
package record

import (
	"bytes"
	"fmt"
)

// Header is the first line of a span-protocol connection.
const Header = "flybench-span 1"

// Limits of the span protocol.
const (
	// MaxLine is the longest line, newline included.
	MaxLine = 256
	// MaxToken is the longest name or span id.
	MaxToken = 64
	// maxWallDigits bounds WALL_NS to 18 digits (under 31 years).
	maxWallDigits = 18
)

// Kind is the kind of a protocol line.
type Kind uint8

// Kinds of protocol lines.
const (
	KindHeader Kind = iota + 1
	KindBenchmark
	KindBegin
	KindEnd
	KindSpan
)

// Msg is one parsed line. Name and ID alias the line they were parsed
// from.
type Msg struct {
	Kind    Kind
	Name    []byte // benchmark, begin, span
	ID      []byte // begin, end
	WallNS  int64  // span
	Outcome Outcome
}

// ParseError is a line that is not in the protocol.
type ParseError struct{ Msg string }

func (e *ParseError) Error() string { return e.Msg }

func parseErrorf(format string, args ...any) error {
	return &ParseError{Msg: fmt.Sprintf(format, args...)}
}

// Parse reads one line without its newline. Fields are separated by
// single spaces; see fb-span(7) for the grammar.
func Parse(line []byte) (Msg, error) {
	word, rest := cut(line)
	switch string(word) {
	case "span":
		return parseSpan(rest)
	case "begin":
		return parseBegin(rest)
	case "end":
		return parseEnd(rest)
	case "benchmark":
		name, err := fields1(rest, "benchmark NAME")
		return Msg{Kind: KindBenchmark, Name: name}, err
	case "flybench-span":
		return parseHeader(rest)
	}
	return Msg{}, parseErrorf("unknown message %q: want span, begin, end, benchmark or %q", clip(word), Header)
}

func parseSpan(rest []byte) (Msg, error) {
	name, rest := cut(rest)
	wall, rest := cut(rest)
	outcome, rest := cut(rest)
	if rest != nil || len(outcome) == 0 {
		return Msg{}, parseErrorf("want \"span NAME WALL_NS OUTCOME\"")
	}
	m := Msg{Kind: KindSpan, Name: name}
	var err error
	if err = checkToken(name, "benchmark name"); err != nil {
		return Msg{}, err
	}
	if m.WallNS, err = parseWall(wall); err != nil {
		return Msg{}, err
	}
	m.Outcome, err = ParseOutcome(outcome)
	return m, err
}

func parseBegin(rest []byte) (Msg, error) {
	id, rest := cut(rest)
	name, rest := cut(rest)
	if rest != nil || len(name) == 0 {
		return Msg{}, parseErrorf("want \"begin ID NAME\"")
	}
	if err := checkToken(id, "span id"); err != nil {
		return Msg{}, err
	}
	if err := checkToken(name, "benchmark name"); err != nil {
		return Msg{}, err
	}
	return Msg{Kind: KindBegin, ID: id, Name: name}, nil
}

func parseEnd(rest []byte) (Msg, error) {
	id, rest := cut(rest)
	outcome, rest := cut(rest)
	if rest != nil || len(outcome) == 0 {
		return Msg{}, parseErrorf("want \"end ID OUTCOME\"")
	}
	if err := checkToken(id, "span id"); err != nil {
		return Msg{}, err
	}
	o, err := ParseOutcome(outcome)
	return Msg{Kind: KindEnd, ID: id, Outcome: o}, err
}

func parseHeader(rest []byte) (Msg, error) {
	if string(rest) != "1" {
		return Msg{}, parseErrorf("protocol version %q is not supported: fb-record speaks %q", clip(rest), Header)
	}
	return Msg{Kind: KindHeader}, nil
}

// fields1 is the one field of rest, which must be a name.
func fields1(rest []byte, form string) ([]byte, error) {
	name, more := cut(rest)
	if more != nil || len(name) == 0 {
		return nil, parseErrorf("want %q", form)
	}
	return name, checkToken(name, "benchmark name")
}

// cut splits b at its first space; rest is nil when there is none.
func cut(b []byte) (word, rest []byte) {
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		return b[:i], b[i+1:]
	}
	return b, nil
}

// checkToken accepts 1 to MaxToken bytes of printable ASCII other than
// space.
func checkToken(b []byte, what string) error {
	if len(b) == 0 {
		return parseErrorf("empty %s (fields are separated by single spaces)", what)
	}
	if len(b) > MaxToken {
		return parseErrorf("%s longer than %d bytes", what, MaxToken)
	}
	for _, c := range b {
		if c <= ' ' || c > '~' {
			return parseErrorf("%s %q holds byte 0x%02x: use printable ASCII without spaces", what, clip(b), c)
		}
	}
	return nil
}

// parseWall reads a decimal count of nanoseconds: digits only.
func parseWall(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > maxWallDigits {
		return 0, parseErrorf("WALL_NS %q: want a whole number of nanoseconds of at most %d digits", clip(b), maxWallDigits)
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, parseErrorf("WALL_NS %q: want a whole number of nanoseconds", clip(b))
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// clip keeps an echoed field short.
func clip(b []byte) string {
	if len(b) > 24 {
		return string(b[:24]) + "..."
	}
	return string(b)
}
