package worker

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
)

// The protocol's lines, written here without package wproto (which needs
// the stream library) so that a worker program depends on the standard
// library and flybench's dependency-free internal/axes alone; the tests check
// them against wproto.

func (w *Worker) handshake() string {
	var b strings.Builder
	b.WriteString("flybench-worker 1\n")
	for _, e := range w.cases {
		b.WriteString("case " + e.name)
		if e.units > 0 {
			b.WriteString(" work_units=" + strconv.FormatFloat(e.units, 'g', -1, 64))
		}
		if e.equalTime {
			b.WriteString(" batching=equal-time")
		}
		b.WriteString("\n")
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
	if err := axes.ValidName(string(f[1])); err != nil {
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
