package wproto

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/custom"
)

// Report is what a batch process wrote on its report channel (fd 3): an
// optional timer, its axes, and one done line without a case. A process
// that wrote nothing has a Report with a nil Done.
type Report struct {
	Timer *Timer
	Axes  []custom.Descriptor
	// WorkUnits is the work one operation completes ("work_units N"),
	// 0 when the process did not say.
	WorkUnits float64
	Done      *Done
}

// String is the report as a batch process writes it, every line ending
// in LF.
func (r Report) String() string {
	var b strings.Builder
	if r.Timer != nil {
		b.WriteString(r.Timer.String() + "\n")
	}
	for _, d := range r.Axes {
		b.WriteString(FormatDecl(d) + "\n")
	}
	if r.WorkUnits > 0 {
		b.WriteString("work_units " + strconv.FormatFloat(r.WorkUnits, 'g', -1, 64) + "\n")
	}
	if r.Done != nil {
		b.WriteString(r.Done.String() + "\n")
	}
	return b.String()
}

// ParseReport parses what a batch process wrote on its report channel:
// optional timer and axis lines, in that order, then one done line and
// nothing after it; or nothing at all. The caller checks that n is the
// batch's.
func ParseReport(data []byte) (Report, error) {
	r := bufio.NewReaderSize(bytes.NewReader(data), MaxLine)
	var p handshakeParser
	p.state, p.h.Cases = stCases, []string{""} // no cases on this channel
	units := 0.0
	for {
		line, err := ReadLine(r)
		if err == io.EOF {
			return Report{Timer: p.h.Timer, Axes: p.h.Axes, WorkUnits: units}, nil
		}
		if err != nil {
			return Report{}, err
		}
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "timer", "axis":
			if _, err := p.line(line); err != nil {
				return Report{}, err
			}
			continue
		case "work_units":
			u, err := strconv.ParseFloat(rest, 64)
			if err != nil || !(u > 0) || math.IsInf(u, 0) || units != 0 {
				return Report{}, syntaxErr(line, "want \"work_units N\" once, N a positive number of work units per operation")
			}
			units = u
			continue
		case "done":
			rep, err := finishReport(r, line, p.h)
			rep.WorkUnits = units
			return rep, err
		}
		if err := checkText(line); err != nil {
			return Report{}, err
		}
		return Report{}, syntaxErr(line, "unknown report message: want timer, axis, work_units or \"done N ...\"")
	}
}

// finishReport reads the done line, the last one.
func finishReport(r *bufio.Reader, line string, h Handshake) (Report, error) {
	d, err := parseDone(line, h.Axes, false)
	if err != nil {
		return Report{}, err
	}
	if rest, _ := io.ReadAll(r); len(rest) > 0 {
		return Report{}, syntaxErr(string(rest), "text after the done line")
	}
	return Report{Timer: h.Timer, Axes: h.Axes, Done: &d}, nil
}
