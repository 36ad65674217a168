// Package wproto is the flybench worker protocol, version 1, and the batch
// report channel (man fb-worker(7)): the messages both sides exchange,
// parsed strictly and formatted canonically.
//
// A worker writes a handshake (Handshake), then answers each request
// (Request) with one line, a Done or a Failure, until it is told to quit
// (Quit). A batch process writes a Report on its report channel. Every
// parser here refuses anything the manual does not allow: an unknown
// message, a bad name, a duplicate field, an undeclared axis, a malformed
// number, another protocol version. Custom axis declarations are read and
// validated by package custom; axis values are only checked for syntax here
// and turned into sample values later by custom.Descriptor.Value, so that a
// NaN or a counter reset becomes a sample status rather than an error.
package wproto

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flybench/flybench/internal/custom"
)

// Protocol name and major version, the first line of every handshake.
const (
	Name    = "flybench-worker"
	Version = 1
)

// MaxLine bounds a message, LF included.
const MaxLine = 64 << 10

// ElapsedField is the attribute of a done line carrying the worker's own
// elapsed time in nanoseconds.
const ElapsedField = "elapsed_ns"

// SyntaxError is a line that breaks the protocol.
type SyntaxError struct {
	Line string // the offending line as received, without its LF
	Msg  string // what is wrong with it
}

// Error quotes the line (shortened when long) and says what is wrong.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s: %s", quoteLine(e.Line), e.Msg)
}

func syntaxErr(line, format string, args ...any) *SyntaxError {
	return &SyntaxError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// quoteLine quotes a line for an error message, at most 120 bytes of it.
func quoteLine(line string) string {
	const limit = 120
	if len(line) <= limit {
		return strconv.Quote(line)
	}
	return strconv.Quote(strings.ToValidUTF8(line[:limit], "")) + "..."
}

// ReadLine reads one message and returns it without its LF. It returns
// io.EOF at a clean end of input, io.ErrUnexpectedEOF after a partial
// line, a *SyntaxError for a line longer than MaxLine, and any error of r
// (such as a deadline) as it is. r's buffer must hold at least MaxLine
// bytes for the length limit to be exact; a smaller buffer lowers it.
func ReadLine(r *bufio.Reader) (string, error) {
	b, err := r.ReadSlice('\n')
	switch {
	case err == nil:
		return string(b[:len(b)-1]), nil
	case errors.Is(err, bufio.ErrBufferFull):
		return "", syntaxErr(string(b[:min(len(b), 120)]), "line longer than %d bytes", r.Size())
	case err == io.EOF && len(b) > 0:
		return "", fmt.Errorf("line %s without its LF: %w", quoteLine(string(b)), io.ErrUnexpectedEOF)
	}
	return "", err
}

// fields splits a line into its space-separated fields, refusing empty
// fields, control characters and invalid UTF-8.
func fields(line string) ([]string, error) {
	if err := checkText(line); err != nil {
		return nil, err
	}
	f := strings.Split(line, " ")
	for _, w := range f {
		if w == "" {
			return nil, syntaxErr(line, "fields are separated by single spaces")
		}
	}
	return f, nil
}

// checkText refuses invalid UTF-8 and control characters, naming a CR.
func checkText(line string) error {
	if line == "" {
		return syntaxErr(line, "empty line")
	}
	if !utf8.ValidString(line) {
		return syntaxErr(line, "not UTF-8")
	}
	for _, c := range []byte(line) {
		switch {
		case c == '\r':
			return syntaxErr(line, "carriage return: lines end in LF alone")
		case c < ' ' || c == 0x7f:
			return syntaxErr(line, "control character %#02x", c)
		}
	}
	return nil
}

// parseN reads an iteration count: decimal digits, at least 1, no sign.
func parseN(s string) (int64, error) {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("n %q: want a positive decimal integer", s)
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err != nil && len(s) > 0:
		return 0, fmt.Errorf("n %s does not fit 64 bits", s)
	case err != nil || n < 1:
		return 0, fmt.Errorf("n %q: want a positive decimal integer", s)
	}
	return n, nil
}

// isDecimal reports whether s is a decimal number as printf("%.17g") or
// strconv.FormatFloat writes one: [sign] digits [. digits] [e [sign] digits].
func isDecimal(s string) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart+frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return false
	}
	if hasExp {
		if len(exp) > 0 && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		return exp != "" && allDigits(exp)
	}
	return true
}

// isSpecial reports whether s spells NaN or an infinity, as C or Go print them.
func isSpecial(s string) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	switch strings.ToLower(s) {
	case "nan", "inf", "infinity":
		return true
	}
	return false
}

func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseElapsed reads elapsed_ns: a decimal number, finite and not negative.
func parseElapsed(s string) (float64, error) {
	if !isDecimal(s) {
		if isSpecial(s) {
			return 0, fmt.Errorf("elapsed_ns=%s: an elapsed time must be finite", s)
		}
		return 0, fmt.Errorf("elapsed_ns=%s: not a decimal number", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return 0, fmt.Errorf("elapsed_ns=%s: not finite", s)
	case v < 0:
		return 0, fmt.Errorf("elapsed_ns=%s: an elapsed time cannot be negative", s)
	}
	return v, nil
}

// checkValue checks the syntax of an axis value: begin:end integers for a
// cumulative axis, one number otherwise. NaN, infinities, negative times,
// backward or overflowing counters pass: they are sample statuses, which
// custom.Descriptor.Value assigns.
func checkValue(d custom.Descriptor, v string) error {
	if d.Semantics == custom.Cumulative {
		b, e, ok := strings.Cut(v, ":")
		if !ok || !isInteger(b) || !isInteger(e) {
			return fmt.Errorf("axis %s=%s: a cumulative axis reports begin:end, two integers", d.Name, v)
		}
		return nil
	}
	if !isDecimal(v) && !isSpecial(v) {
		return fmt.Errorf("axis %s=%s: not a number", d.Name, v)
	}
	return nil
}

func isInteger(s string) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	return s != "" && allDigits(s)
}

// formatFloat writes a value the way the manual allows.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// checkSource checks a timing source: printable ASCII without spaces,
// commas, quotes or backslashes, at most custom.MaxSourceLen bytes.
func checkSource(s string) error {
	if s == "" || len(s) > custom.MaxSourceLen {
		return fmt.Errorf("timing source %q: 1 to %d characters", s, custom.MaxSourceLen)
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c > '~' || c == ',' || c == '"' || c == '\'' || c == '\\' {
			return fmt.Errorf("timing source %q: printable ASCII without spaces, commas, quotes or backslashes", s)
		}
	}
	return nil
}

// attrs splits key=value fields, refusing a field without '=', an empty
// value and a key given twice.
func attrs(line string, fs []string) ([][2]string, error) {
	out := make([][2]string, 0, len(fs))
	seen := make(map[string]bool, len(fs))
	for _, f := range fs {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k == "" || v == "" {
			return nil, syntaxErr(line, "%q is not key=value", f)
		}
		if seen[k] {
			return nil, syntaxErr(line, "%s given twice", k)
		}
		seen[k] = true
		out = append(out, [2]string{k, v})
	}
	return out, nil
}
