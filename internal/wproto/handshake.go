package wproto

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
)

// Timer is the clock behind a worker's elapsed_ns answers.
type Timer struct {
	Source       string
	ResolutionNS float64
}

// Handshake is what a worker writes on start: its protocol version, its
// cases in its own order, its timer if it names one, and its custom axes.
type Handshake struct {
	Version int
	Cases   []string
	Timer   *Timer
	Axes    []custom.Descriptor
	// WorkUnits holds the work one operation of a case completes, for the
	// cases that declare it ("case NAME work_units=N").
	WorkUnits map[string]float64
	// EqualTime holds the cases that declare their cost per iteration
	// independent of n ("case NAME batching=equal-time"): a run of only
	// such cases may size each side's batches toward an equal timed slice.
	EqualTime map[string]bool
}

// EqualTimeBatching is the one value of a case's batching attribute.
const EqualTimeBatching = "equal-time"

// HasCase reports whether the worker declared the case.
func (h Handshake) HasCase(name string) bool {
	for _, c := range h.Cases {
		if c == name {
			return true
		}
	}
	return false
}

// String is the handshake as a worker writes it, every line ending in LF,
// the last one "ready".
func (h Handshake) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d\n", Name, h.Version)
	for _, c := range h.Cases {
		b.WriteString("case " + c)
		if u, ok := h.WorkUnits[c]; ok {
			b.WriteString(" work_units=" + strconv.FormatFloat(u, 'g', -1, 64))
		}
		if h.EqualTime[c] {
			b.WriteString(" batching=" + EqualTimeBatching)
		}
		b.WriteString("\n")
	}
	if h.Timer != nil {
		b.WriteString(h.Timer.String() + "\n")
	}
	for _, d := range h.Axes {
		b.WriteString(FormatDecl(d) + "\n")
	}
	b.WriteString("ready\n")
	return b.String()
}

// String is the timer line.
func (t Timer) String() string {
	return "timer source=" + t.Source + " resolution_ns=" + formatFloat(t.ResolutionNS)
}

// FormatDecl is the "axis ..." line declaring d, leaving out attributes
// that have their default value.
func FormatDecl(d custom.Descriptor) string {
	def := custom.Descriptor{}.Defaults()
	parts := []string{"axis", d.Name, "unit=" + d.Unit}
	add := func(key, v, dflt string) {
		if v != "" && v != dflt {
			parts = append(parts, key+"="+v)
		}
	}
	add("direction", string(d.Direction), string(def.Direction))
	add("semantics", string(d.Semantics), string(def.Semantics))
	add("normalize", string(d.Normalize), string(def.Normalize))
	add("compare", string(d.Compare), string(def.Compare))
	add("scope", d.Scope, def.Scope)
	add("attribution", d.Attribution, def.Attribution)
	if d.Primary {
		parts = append(parts, "primary=1")
	}
	add("source", d.Source, "")
	if d.Resolution != 0 {
		parts = append(parts, "resolution="+formatFloat(d.Resolution))
	}
	return strings.Join(parts, " ")
}

// ParseHandshake parses a whole handshake, ready line included; nothing
// may follow it.
func ParseHandshake(text string) (Handshake, error) {
	r := bufio.NewReaderSize(strings.NewReader(text), MaxLine)
	h, err := ReadHandshake(r)
	if err != nil {
		return Handshake{}, err
	}
	if rest, _ := io.ReadAll(r); len(rest) > 0 {
		return Handshake{}, syntaxErr(string(rest), "text after ready")
	}
	return h, nil
}

// ReadHandshake reads a handshake up to and including its ready line.
// Errors reading r are returned as they are (io.ErrUnexpectedEOF when the
// input ends before ready); a line out of protocol is a *SyntaxError.
func ReadHandshake(r *bufio.Reader) (Handshake, error) {
	var p handshakeParser
	for {
		line, err := ReadLine(r)
		if err == io.EOF {
			return Handshake{}, fmt.Errorf("handshake ended before ready: %w", io.ErrUnexpectedEOF)
		}
		if err != nil {
			return Handshake{}, err
		}
		done, err := p.line(line)
		if err != nil {
			return Handshake{}, err
		}
		if done {
			return p.h, nil
		}
	}
}

// Handshake sections, which come in this order.
const (
	stVersion = iota
	stCases
	stTimer
	stAxes
)

type handshakeParser struct {
	h     Handshake
	state int
}

// line takes one handshake line and reports whether it was ready.
func (p *handshakeParser) line(line string) (bool, error) {
	f, err := fields(line)
	if err != nil {
		return false, err
	}
	if p.state == stVersion {
		return false, p.version(line, f)
	}
	switch f[0] {
	case "case":
		return false, p.caseLine(line, f)
	case "timer":
		return false, p.timerLine(line, f)
	case "axis":
		return false, p.axisLine(line, f)
	case "ready":
		return true, p.ready(line, f)
	}
	return false, syntaxErr(line, "unknown handshake message %q: want case, timer, axis or ready", f[0])
}

func (p *handshakeParser) version(line string, f []string) error {
	want := fmt.Sprintf("%s %d", Name, Version)
	if f[0] != Name {
		return syntaxErr(line, "not a flybench worker: the first line must be %q", want)
	}
	if len(f) != 2 || !allDigits(f[1]) {
		return syntaxErr(line, "malformed protocol line: want %q", want)
	}
	v, err := strconv.Atoi(f[1])
	if err != nil || v != Version {
		return syntaxErr(line, "the worker speaks %s version %s; this harness speaks version %d", Name, f[1], Version)
	}
	p.h.Version, p.state = v, stCases
	return nil
}

func (p *handshakeParser) caseLine(line string, f []string) error {
	switch {
	case p.state != stCases:
		return syntaxErr(line, "case after timer or axis: cases come first")
	case len(f) < 2 || len(f) > 4:
		return syntaxErr(line, "want \"case NAME [work_units=N] [batching=equal-time]\"")
	}
	if err := axes.ValidName(f[1]); err != nil {
		return syntaxErr(line, "case %v", err)
	}
	if p.h.HasCase(f[1]) {
		return syntaxErr(line, "case %s declared twice", f[1])
	}
	kv, err := attrs(line, f[2:])
	if err != nil {
		return err
	}
	p.h.Cases = append(p.h.Cases, f[1])
	for _, a := range kv {
		if err := p.caseAttr(line, f[1], a[0], a[1]); err != nil {
			return err
		}
	}
	return nil
}

// caseAttr takes one key=value attribute of case name's line.
func (p *handshakeParser) caseAttr(line, name, key, v string) error {
	switch key {
	case "work_units":
		u, err := strconv.ParseFloat(v, 64)
		if err != nil || !(u > 0) || math.IsInf(u, 0) {
			return syntaxErr(line, "case %s: want work_units=N, a positive number of work units per operation", name)
		}
		if p.h.WorkUnits == nil {
			p.h.WorkUnits = map[string]float64{}
		}
		p.h.WorkUnits[name] = u
	case "batching":
		if v != EqualTimeBatching {
			return syntaxErr(line, "case %s: batching=%s: the only value is %s (the cost of an iteration does not depend on n)", name, v, EqualTimeBatching)
		}
		if p.h.EqualTime == nil {
			p.h.EqualTime = map[string]bool{}
		}
		p.h.EqualTime[name] = true
	default:
		return syntaxErr(line, "case %s: unknown attribute %q: want work_units or batching", name, key)
	}
	return nil
}

func (p *handshakeParser) timerLine(line string, f []string) error {
	if p.state > stCases {
		return syntaxErr(line, "a second timer, or a timer after an axis")
	}
	if err := p.atLeastOneCase(line); err != nil {
		return err
	}
	t, err := parseTimer(line, f[1:])
	if err != nil {
		return err
	}
	p.h.Timer, p.state = t, stTimer
	return nil
}

// parseTimer reads the attributes of a timer line: both required.
func parseTimer(line string, fs []string) (*Timer, error) {
	kv, err := attrs(line, fs)
	if err != nil {
		return nil, err
	}
	var t Timer
	var hasRes bool
	for _, a := range kv {
		switch a[0] {
		case "source":
			if err := checkSource(a[1]); err != nil {
				return nil, syntaxErr(line, "%v", err)
			}
			t.Source = a[1]
		case "resolution_ns":
			v, err := strconv.ParseFloat(a[1], 64)
			if !isDecimal(a[1]) || err != nil || !(v > 0) {
				return nil, syntaxErr(line, "resolution_ns=%s: want a positive finite number", a[1])
			}
			t.ResolutionNS, hasRes = v, true
		default:
			return nil, syntaxErr(line, "unknown timer attribute %q", a[0])
		}
	}
	if t.Source == "" || !hasRes {
		return nil, syntaxErr(line, "want \"timer source=NAME resolution_ns=VALUE\"")
	}
	return &t, nil
}

func (p *handshakeParser) axisLine(line string, f []string) error {
	if err := p.atLeastOneCase(line); err != nil {
		return err
	}
	if len(p.h.Axes) == custom.MaxAxes {
		return syntaxErr(line, "more than %d axes", custom.MaxAxes)
	}
	d, err := parseDecl(line, f[1:])
	if err != nil {
		return err
	}
	axes := append(p.h.Axes, d)
	if err := custom.ValidateSet(axes); err != nil {
		return syntaxErr(line, "%v", err)
	}
	p.h.Axes, p.state = axes, stAxes
	return nil
}

// parseDecl reads the fields of an axis line after the word axis.
func parseDecl(line string, fs []string) (custom.Descriptor, error) {
	if len(fs) > 0 {
		kv, err := attrs(line, fs[1:])
		if err != nil {
			return custom.Descriptor{}, err
		}
		for _, a := range kv {
			if a[0] == "resolution" && !isDecimal(a[1]) {
				return custom.Descriptor{}, syntaxErr(line, "resolution=%s: not a decimal number", a[1])
			}
		}
	}
	d, err := custom.ParseDecl(fs)
	if err != nil {
		return custom.Descriptor{}, syntaxErr(line, "%v", err)
	}
	return d, nil
}

func (p *handshakeParser) atLeastOneCase(line string) error {
	if len(p.h.Cases) == 0 {
		return syntaxErr(line, "no case declared: at least one case comes first")
	}
	return nil
}

func (p *handshakeParser) ready(line string, f []string) error {
	if len(f) != 1 {
		return syntaxErr(line, "want \"ready\" alone")
	}
	return p.atLeastOneCase(line)
}
