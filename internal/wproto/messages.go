package wproto

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
)

// Quit is the harness's last request.
const Quit = "quit"

// Request is "run CASE N": run N iterations of a case.
type Request struct {
	Case string
	N    int64
}

// String is the request line, without its LF.
func (r Request) String() string {
	return "run " + r.Case + " " + strconv.FormatInt(r.N, 10)
}

// ParseRequest parses a line the harness sends: a run request, or quit.
func ParseRequest(line string) (r Request, quit bool, err error) {
	f, err := fields(line)
	if err != nil {
		return Request{}, false, err
	}
	switch {
	case f[0] == Quit && len(f) == 1:
		return Request{}, true, nil
	case f[0] != "run":
		return Request{}, false, syntaxErr(line, "unknown request: want \"run CASE N\" or \"quit\"")
	case len(f) != 3:
		return Request{}, false, syntaxErr(line, "want \"run CASE N\"")
	}
	if err := axes.ValidName(f[1]); err != nil {
		return Request{}, false, syntaxErr(line, "case %v", err)
	}
	n, err := parseN(f[2])
	if err != nil {
		return Request{}, false, syntaxErr(line, "%v", err)
	}
	return Request{Case: f[1], N: n}, false, nil
}

// Done is a worker's answer "done CASE N [elapsed_ns=V] [AXIS=V ...]", or a
// batch report's "done N ..." line, which has no Case.
type Done struct {
	Case string
	N    int64
	// ElapsedNS is the worker's own elapsed time for the N iterations, nil
	// when it did not report one.
	ElapsedNS *float64
	// Values holds the raw field of each axis reported, by name: begin:end
	// for a cumulative axis, one number otherwise. Turn one into a sample
	// value with custom.Descriptor.Value. An axis left out was not read.
	Values map[string]string
}

// String is the done line, without its LF; axis fields are sorted by name.
func (d Done) String() string {
	parts := []string{"done"}
	if d.Case != "" {
		parts = append(parts, d.Case)
	}
	parts = append(parts, strconv.FormatInt(d.N, 10))
	if d.ElapsedNS != nil {
		parts = append(parts, ElapsedField+"="+formatFloat(*d.ElapsedNS))
	}
	for _, k := range slices.Sorted(maps.Keys(d.Values)) {
		parts = append(parts, k+"="+d.Values[k])
	}
	return strings.Join(parts, " ")
}

// Failure is a worker's answer "error CASE MESSAGE": the iterations failed.
// ParseAnswer returns it as its error.
type Failure struct {
	Case    string
	Message string
}

// String is the error line, without its LF.
func (f *Failure) String() string { return "error " + f.Case + " " + f.Message }

// Error is the worker's message.
func (f *Failure) Error() string { return fmt.Sprintf("case %s failed: %s", f.Case, f.Message) }

// ParseAnswer parses a worker's answer to a run request against the axes
// it declared. A done line is returned; an error line is returned as a
// *Failure error; anything else is a *SyntaxError. The caller checks that
// the case and n echo its request.
func ParseAnswer(line string, axes []custom.Descriptor) (Done, error) {
	word, rest, _ := strings.Cut(line, " ")
	switch word {
	case "done":
		return parseDone(line, axes, true)
	case "error":
		return Done{}, parseFailure(line, rest)
	}
	if err := checkText(line); err != nil {
		return Done{}, err
	}
	return Done{}, syntaxErr(line, "unknown answer: want \"done CASE N ...\" or \"error CASE MESSAGE\"")
}

func parseFailure(line, rest string) error {
	if err := checkText(line); err != nil {
		return err
	}
	name, msg, _ := strings.Cut(rest, " ")
	if err := axes.ValidName(name); err != nil {
		return syntaxErr(line, "case %v", err)
	}
	if strings.TrimSpace(msg) == "" {
		return syntaxErr(line, "want \"error CASE MESSAGE\": the message is missing")
	}
	return &Failure{Case: name, Message: msg}
}

// parseDone reads a done line; withCase says whether it names a case (a
// worker's answer) or not (a batch report).
func parseDone(line string, decls []custom.Descriptor, withCase bool) (Done, error) {
	f, err := fields(line)
	if err != nil {
		return Done{}, err
	}
	var d Done
	f = f[1:]
	if withCase {
		if len(f) == 0 {
			return Done{}, syntaxErr(line, "want \"done CASE N ...\"")
		}
		if err := axes.ValidName(f[0]); err != nil {
			return Done{}, syntaxErr(line, "case %v", err)
		}
		d.Case, f = f[0], f[1:]
	}
	if len(f) == 0 {
		return Done{}, syntaxErr(line, "n is missing")
	}
	if d.N, err = parseN(f[0]); err != nil {
		return Done{}, syntaxErr(line, "%v", err)
	}
	if err := d.setFields(line, f[1:], decls); err != nil {
		return Done{}, err
	}
	return d, nil
}

// setFields reads the key=value fields of a done line.
func (d *Done) setFields(line string, fs []string, decls []custom.Descriptor) error {
	kv, err := attrs(line, fs)
	if err != nil {
		return err
	}
	for _, a := range kv {
		if a[0] == ElapsedField {
			v, err := parseElapsed(a[1])
			if err != nil {
				return syntaxErr(line, "%v", err)
			}
			d.ElapsedNS = &v
			continue
		}
		i := slices.IndexFunc(decls, func(x custom.Descriptor) bool { return x.Name == a[0] })
		if i < 0 {
			return syntaxErr(line, "undeclared axis %q", a[0])
		}
		if err := checkValue(decls[i], a[1]); err != nil {
			return syntaxErr(line, "%v", err)
		}
		if d.Values == nil {
			d.Values = make(map[string]string, len(kv))
		}
		d.Values[a[0]] = a[1]
	}
	return nil
}
