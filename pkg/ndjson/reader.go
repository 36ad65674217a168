package ndjson

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	json "github.com/goccy/go-json"
)

// MaxLineBytes bounds one record. A longer line is a syntax error, not an
// out-of-memory condition.
const MaxLineBytes = 16 << 20

// SyntaxError is a line that is not a usable record. It prints as
// "file:line: message", the form editors and humans can jump to.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// VersionError is a record whose major schema version this reader does not know.
type VersionError struct {
	File  string
	Line  int
	Found string
}

func (e *VersionError) Error() string {
	return fmt.Sprintf("%s:%d: stream schema version %s is not supported by this reader (schema %s); "+
		"use a flybench release that reads schema %s", e.File, e.Line, e.Found, Version, e.Found)
}

// TornError is a stream whose last line has no newline and is the
// beginning of a record cut short: a copy interrupted, a full disk, head -c.
// Every line before it is whole. It unwraps to the *SyntaxError the line
// would be otherwise, so a reader that does not expect it stops there.
type TornError struct {
	File string
	Line int
}

func (e *TornError) Error() string {
	return fmt.Sprintf("%s:%d: the stream ends mid-record (a last line without its newline)", e.File, e.Line)
}

// Warning says what a reader that goes on without the torn line did, for
// an analysis or a report to carry; it names no file, so an analysis does
// not depend on how its input was named.
func (e *TornError) Warning() string {
	return fmt.Sprintf("stream ends mid-record at line %d; the partial record was ignored", e.Line)
}

func (e *TornError) Unwrap() error {
	return &SyntaxError{File: e.File, Line: e.Line, Msg: "the stream ends mid-record (a last line without its newline)"}
}

// Line is one record as read, not yet decoded beyond its header.
type Line struct {
	No   int
	Type string
	// V is the record's schema version.
	V string
	// Raw is the line without its newline. It is valid until the next call to Next.
	Raw []byte
	// valid is set on lines from Next, which checked Raw is JSON.
	valid bool
}

// Reader reads records one line at a time. Blank lines are skipped. Every
// line it returns is one JSON object (RFC 8259, strict UTF-8): nothing
// else reaches a decoder.
type Reader struct {
	name string
	sc   *bufio.Scanner
	no   int
	v    validator
	// unterminated is set once the scanner returned a last line without
	// a newline; torn once that line turned out to be a record cut short.
	unterminated bool
	torn         *TornError
	// sample is the sample line numbered sampleNo, parsed as it was read.
	sample   Sample
	sampleNo int
}

// NewReader reads from r; name is used in error messages ("-" reads as "<stdin>").
func NewReader(r io.Reader, name string) *Reader {
	if name == "" || name == "-" {
		name = "<stdin>"
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	rd := &Reader{name: name, sc: sc}
	sc.Split(rd.splitLines)
	return rd
}

// splitLines is bufio.ScanLines, noting a last line without a newline.
func (r *Reader) splitLines(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		r.unterminated = true
		return len(data), data, nil
	}
	return 0, nil, nil
}

// Name is the input's name as used in error messages.
func (r *Reader) Name() string { return r.name }

// Torn is the torn last line Next reported, or nil.
func (r *Reader) Torn() *TornError { return r.torn }

// Next returns the next record, io.EOF at the end, a *SyntaxError for a line
// that is not a JSON object with a type and version, or a *VersionError.
// A last line without a newline that is a record cut short is a
// *TornError; the next call returns io.EOF.
func (r *Reader) Next() (Line, error) {
	for r.sc.Scan() {
		r.no++
		line := r.sc.Bytes()
		raw := bytes.TrimSpace(line)
		if len(raw) == 0 {
			continue
		}
		if raw[0] != '{' {
			return Line{}, r.errorf("not a JSON object (starts with %q); each line must be one record", preview(raw))
		}
		typ, v, fast := fastHeader(raw)
		if fast && typ == TypeSample && compatible(v) && fastSample(raw, v, &r.sample) {
			r.sampleNo = r.no
			return Line{No: r.no, Type: typ, V: v, Raw: raw, valid: true}, nil
		}
		if p := r.v.check(raw); p != nil {
			lead := len(line) - len(bytes.TrimLeftFunc(line, unicode.IsSpace))
			if p.dup {
				return Line{}, r.errorf("column %d: %s", lead+p.off+1, p.msg)
			}
			if r.unterminated && p.off == len(raw) {
				r.torn = &TornError{File: r.name, Line: r.no}
				return Line{}, r.torn
			}
			return Line{}, r.errorf("invalid JSON at column %d: %s", lead+p.off+1, p.msg)
		}
		if !fast {
			var err error
			if typ, v, err = decodeHeader(raw); err != nil {
				return Line{}, r.errorf("%v", err)
			}
		}
		if !compatible(v) {
			return Line{}, &VersionError{File: r.name, Line: r.no, Found: v}
		}
		return Line{No: r.no, Type: typ, V: v, Raw: raw, valid: true}, nil
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Line{}, &SyntaxError{File: r.name, Line: r.no + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
		}
		return Line{}, fmt.Errorf("read %s: %w", r.name, err)
	}
	return Line{}, io.EOF
}

// Decode unmarshals l into v, reporting failures against l's position. A
// line that did not come from Next is checked first.
func (r *Reader) Decode(l Line, v any) error {
	if err := r.check(l); err != nil {
		return err
	}
	if err := json.Unmarshal(l.Raw, v); err != nil {
		msg := fieldError(l.Raw, v)
		if msg == "" {
			msg = shortJSONError(err)
		}
		return &SyntaxError{File: r.name, Line: l.No, Msg: fmt.Sprintf("bad %s record: %s", l.Type, msg)}
	}
	return nil
}

// check refuses a line that is not JSON, unless Next already checked it.
func (r *Reader) check(l Line) error {
	if l.valid {
		return nil
	}
	if p := r.v.check(l.Raw); p != nil && p.dup {
		return &SyntaxError{File: r.name, Line: l.No, Msg: fmt.Sprintf("column %d: %s", p.off+1, p.msg)}
	} else if p != nil {
		return &SyntaxError{File: r.name, Line: l.No, Msg: fmt.Sprintf("invalid JSON at column %d: %s", p.off+1, p.msg)}
	}
	return nil
}

// Errorf makes a *SyntaxError at line l, for records that parse but make no sense.
func (r *Reader) Errorf(l Line, format string, args ...any) error {
	return &SyntaxError{File: r.name, Line: l.No, Msg: fmt.Sprintf(format, args...)}
}

func (r *Reader) errorf(format string, args ...any) error {
	return &SyntaxError{File: r.name, Line: r.no, Msg: fmt.Sprintf(format, args...)}
}

// Known reports whether typ is a record type defined by this schema.
func Known(typ string) bool {
	switch typ {
	case TypeRun, TypeCalibration, TypeSample, TypeEnd, TypeAnalysis, TypeSummary, TypeComparison,
		TypeLock, TypeGate, TypeWindow, TypeEnvironment, TypeLook:
		return true
	}
	return false
}

// compatible reports whether version v has this reader's major number.
func compatible(v string) bool {
	major, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(major)
	return err == nil && n == Major
}

var headerPrefix = []byte(`{"type":"`)

// decodeHeader extracts type and version from a line that is a JSON object
// but not in the layout fastHeader reads.
func decodeHeader(raw []byte) (typ, v string, err error) {
	var h struct {
		Type *string `json:"type"`
		V    *string `json:"v"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", "", fmt.Errorf("invalid JSON: %s", shortJSONError(err))
	}
	switch {
	case h.Type == nil || *h.Type == "":
		return "", "", errors.New(`record has no "type" field`)
	case h.V == nil || *h.V == "":
		return "", "", fmt.Errorf(`%s record has no schema version field "v"`, *h.Type)
	}
	return *h.Type, *h.V, nil
}

// fastHeader reads the type and version of a line that starts the way
// Writer starts every record, {"type":"T","v":"V", with both strings plain
// printable ASCII; it looks at nothing after them.
func fastHeader(raw []byte) (typ, v string, ok bool) {
	rest, found := bytes.CutPrefix(raw, headerPrefix)
	if !found {
		return "", "", false
	}
	i := plainPrefix(rest)
	if i == 0 || i == len(rest) || rest[i] != '"' {
		return "", "", false
	}
	typ, rest = intern(rest[:i]), rest[i+1:]
	rest, found = bytes.CutPrefix(rest, []byte(`,"v":"`))
	if !found {
		return "", "", false
	}
	j := plainPrefix(rest)
	if j == 0 || j == len(rest) || rest[j] != '"' {
		return "", "", false
	}
	return typ, internVersion(rest[:j]), true
}

// plainPrefix is the length of the string bytes at the start of b that need
// no escape and are ASCII.
func plainPrefix(b []byte) int {
	i := 0
	for i < len(b) && strPlain[b[i]] {
		i++
	}
	return i
}

// intern returns the constant for a known record type, so the common lines
// of a stream allocate nothing for their header.
func intern(b []byte) string {
	for _, t := range knownTypes {
		if string(b) == t {
			return t
		}
	}
	return string(b)
}

var knownTypes = []string{TypeSample, TypeWindow, TypeRun, TypeCalibration, TypeEnd, TypeAnalysis, TypeSummary,
	TypeComparison, TypeLock, TypeGate, TypeEnvironment, TypeLook}

// internVersion returns Version itself for this reader's version.
func internVersion(b []byte) string {
	if string(b) == Version {
		return Version
	}
	return string(b)
}

func preview(b []byte) string {
	if len(b) > 20 {
		return string(b[:20]) + "..."
	}
	return string(b)
}

// shortJSONError keeps a decoder message to one line.
func shortJSONError(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
