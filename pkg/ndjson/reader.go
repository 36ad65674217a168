package ndjson

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

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

// Line is one record as read, not yet decoded beyond its header.
type Line struct {
	No   int
	Type string
	// V is the record's schema version.
	V string
	// Raw is the line without its newline. It is valid until the next call to Next.
	Raw []byte
}

// Reader reads records one line at a time. Blank lines are skipped.
type Reader struct {
	name string
	sc   *bufio.Scanner
	no   int
}

// NewReader reads from r; name is used in error messages ("-" reads as "<stdin>").
func NewReader(r io.Reader, name string) *Reader {
	if name == "" || name == "-" {
		name = "<stdin>"
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	return &Reader{name: name, sc: sc}
}

// Name is the input's name as used in error messages.
func (r *Reader) Name() string { return r.name }

// Next returns the next record, io.EOF at the end, a *SyntaxError for a line
// that is not a JSON object with a type and version, or a *VersionError.
func (r *Reader) Next() (Line, error) {
	for r.sc.Scan() {
		r.no++
		raw := bytes.TrimSpace(r.sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		typ, v, err := parseHeader(raw)
		if err != nil {
			return Line{}, r.errorf("%v", err)
		}
		if !compatible(v) {
			return Line{}, &VersionError{File: r.name, Line: r.no, Found: v}
		}
		if !Known(typ) && !json.Valid(raw) {
			// Known records are validated when decoded; an unknown one is
			// passed through undecoded, so it must at least be valid JSON.
			return Line{}, r.errorf("invalid JSON in %s record", typ)
		}
		return Line{No: r.no, Type: typ, V: v, Raw: raw}, nil
	}
	if err := r.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Line{}, &SyntaxError{File: r.name, Line: r.no + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxLineBytes)}
		}
		return Line{}, fmt.Errorf("read %s: %w", r.name, err)
	}
	return Line{}, io.EOF
}

// Decode unmarshals l into v, reporting failures against l's position.
func (r *Reader) Decode(l Line, v any) error {
	if err := json.Unmarshal(l.Raw, v); err != nil {
		return &SyntaxError{File: r.name, Line: l.No, Msg: fmt.Sprintf("bad %s record: %s", l.Type, shortJSONError(err))}
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

// parseHeader extracts type and version. Records written by Writer start with
// {"type":"T","v":"V"; that form is read without a full decode, anything else
// is decoded generically.
func parseHeader(raw []byte) (typ, v string, err error) {
	if raw[0] != '{' {
		return "", "", fmt.Errorf("not a JSON object (starts with %q); each line must be one record", preview(raw))
	}
	if t, ver, ok := fastHeader(raw); ok {
		return t, ver, nil
	}
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

func fastHeader(raw []byte) (typ, v string, ok bool) {
	rest, found := bytes.CutPrefix(raw, headerPrefix)
	if !found {
		return "", "", false
	}
	i := bytes.IndexByte(rest, '"')
	if i <= 0 || bytes.IndexByte(rest[:i], '\\') >= 0 {
		return "", "", false
	}
	typ, rest = intern(rest[:i]), rest[i+1:]
	rest, found = bytes.CutPrefix(rest, []byte(`,"v":"`))
	if !found {
		return "", "", false
	}
	j := bytes.IndexByte(rest, '"')
	if j <= 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
		return "", "", false
	}
	// The rest of the line is validated when the record is decoded, or left
	// alone when an unknown type is passed through; a truncated line still
	// has to end like an object.
	if raw[len(raw)-1] != '}' {
		return "", "", false
	}
	return typ, internVersion(rest[:j]), true
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
