package worker

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The protocol's lines, written here without package wproto so that a
// worker program depends on the standard library alone; the tests check
// them against wproto.

func (w *Worker) handshake() string {
	var b strings.Builder
	b.WriteString("flybench-worker 1\n")
	for _, e := range w.cases {
		b.WriteString("case " + e.name + "\n")
	}
	src, res := clockSource()
	b.WriteString("timer source=" + src + " resolution_ns=" + strconv.FormatFloat(res, 'g', -1, 64) + "\n")
	for _, a := range w.axes {
		b.WriteString(a.decl.line() + "\n")
	}
	b.WriteString("ready\n")
	return b.String()
}

// parseRequest reads "run CASE N" or "quit".
func parseRequest(line []byte) (name []byte, n int, quit bool, err error) {
	if string(line) == "quit" {
		return nil, 0, true, nil
	}
	f := bytes.Split(line, []byte(" "))
	if len(f) != 3 || string(f[0]) != "run" {
		return nil, 0, false, &RequestError{Line: string(line), Msg: `want "run CASE N" or "quit"`}
	}
	if err := validName(string(f[1])); err != nil {
		return nil, 0, false, &RequestError{Line: string(line), Msg: "case " + err.Error()}
	}
	n, ok := parseCount(f[2])
	if !ok {
		return nil, 0, false, &RequestError{Line: string(line), Msg: fmt.Sprintf("n must be an integer from 1 to %d", math.MaxInt)}
	}
	return f[1], n, false, nil
}

// parseCount reads decimal digits as a positive int.
func parseCount(b []byte) (int, bool) {
	if len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' || n > (math.MaxInt-int(c-'0'))/10 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n >= 1
}

// appendFailure appends an error line, its message made one printable line.
func appendFailure(b []byte, name, msg string) []byte {
	msg = strings.Join(strings.FieldsFunc(msg, func(r rune) bool { return r < ' ' || r == 0x7f }), " ")
	if strings.TrimSpace(msg) == "" {
		msg = "failed"
	}
	b = append(b, "error "...)
	b = append(b, name...)
	b = append(b, ' ')
	b = append(b, msg...)
	return append(b, '\n')
}

// validName is the protocol's rule for case and axis names: lowercase
// ASCII, beginning with a letter, then letters, digits, '.', '_' or '-',
// at most 48 bytes.
func validName(s string) error {
	if s == "" || len(s) > 48 {
		return fmt.Errorf("name %q: 1 to 48 characters", s)
	}
	if s[0] < 'a' || s[0] > 'z' {
		return fmt.Errorf("name %q: must begin with a lowercase letter", s)
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("name %q: only lowercase letters, digits, '.', '_' and '-'", s)
		}
	}
	return nil
}

// validText is the rule for units, scopes and attributions: printable
// ASCII without spaces, commas, quotes or backslashes.
func validText(what, s string, limit int) error {
	if s == "" || len(s) > limit {
		return fmt.Errorf("%s %q: 1 to %d characters", what, s, limit)
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c > '~' || c == ',' || c == '"' || c == '\'' || c == '\\' {
			return fmt.Errorf("%s %q: printable ASCII without spaces, commas, quotes or backslashes", what, s)
		}
	}
	return nil
}
