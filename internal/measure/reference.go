package measure

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/refwork"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// refworkTool is the program of the built-in reference workloads.
const refworkTool = "fb-refwork"

// reference is the reference workload: a built-in kind run by fb-refwork,
// or a command of the user's.
type reference struct {
	kind    string // int or mem; "" for a command
	program string // fb-refwork's path, for a built-in
	command string // the user's command
}

// resolveReference reads Reference and finds a built-in's program; the
// reference takes one of the cases the tool allows.
func (p *plan) resolveReference() error {
	if p.Reference == nil {
		return nil
	}
	value, ref := *p.Reference, field.Name("Reference")
	switch {
	case strings.TrimSpace(value) == "":
		return field.Errorf("Reference", value, "%s is empty: give int, mem or a command", ref)
	case p.Mode == ModeWorker:
		return field.Errorf("Reference", value, "%s cannot be used with %s: worker cases run inside the workers' own processes, and the reference workload is a program of its own", ref, modeName(ModeWorker))
	case p.Mode == ModeGotest:
		return field.Errorf("Reference", value, "%s cannot be used with %s: each side is a Go benchmark timed by the test binary, and the reference workload is not one", ref, modeName(ModeGotest))
	case !slices.Contains(refwork.Kinds, value):
		p.ref = &reference{command: value}
	default:
		path, err := refworkFinder.find()
		if err != nil {
			return err
		}
		p.ref = &reference{kind: value, program: path}
	}
	p.most = min(p.most, collect.MaxCases-1)
	return nil
}

// name is the reference case's default name.
func (r *reference) name() string {
	if r.kind == "" {
		return r.command
	}
	return "reference-workload (" + r.kind + ")"
}

// commandFor is the command run for the reference. A built-in in batch
// mode takes N from {n} and, when report is set, reports its own elapsed
// time like the measured commands do.
func (r *reference) commandFor(mode Mode, report bool) string {
	if r.kind == "" {
		return r.command
	}
	line := runner.QuoteCommand([]string{r.program})
	if mode == ModeBatch {
		line += refwork.BatchFlags(runner.Placeholder, report)
	}
	return line + " " + r.kind
}

// addReference appends the reference workload as the last side, named
// apart from the measured cases.
func (p *plan) addReference() error {
	if p.ref == nil {
		return nil
	}
	if given := len(p.Names); given > len(p.sides) {
		return field.Errorf("Names", p.Names, "%d %s values for %d commands (the reference workload is named by itself)", given, field.Name("Names"), len(p.sides))
	}
	if p.Until.Rule == ndjson.UntilDecision && len(p.sides) < 2 {
		rule := field.Name("Until.Rule")
		return field.Errorf("Until.Rule", p.Until.Rule, "%s decision needs 2 or more commands to compare, and the reference workload is never compared: use %s width=P%%", rule, rule)
	}
	name := p.ref.name()
	for n := 2; slices.Contains(p.caseNames, name); n++ {
		name = fmt.Sprintf("%s (%d)", p.ref.name(), n)
	}
	p.sides = append(p.sides, side{command: p.ref.commandFor(p.Mode, false), worker: len(p.sides)})
	p.caseNames = append(p.caseNames, name)
	return nil
}

// markReference gives the reference case its role.
func (m *measurement) markReference() {
	if m.ref != nil {
		m.cases[len(m.cases)-1].Role = ndjson.RoleReferenceWorkload
	}
}

// batchReference is the reference side of a batch run, made to report
// what the measured commands reported on their first batch (first): its
// own elapsed time when they do. A built-in reports no custom axes, so it
// cannot join commands that declare some.
func (m *measurement) batchReference(s side, first discovered) (side, error) {
	if m.ref.kind == "" {
		return s, nil
	}
	if len(first.axes) > 0 {
		ref := field.Name("Reference")
		return s, m.errorf("Reference", m.ref.kind, "%s %s: the commands declare custom axes (%s), which %s does not report; give %s a command that declares them",
			ref, m.ref.kind, axisNames(first), refworkTool, ref)
	}
	s.command = m.ref.commandFor(m.Mode, first.elapsed)
	return s, nil
}

func axisNames(d discovered) string {
	names := make([]string, len(d.axes))
	for i, a := range d.axes {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// finder locates fb-refwork: in the directory of the running executable,
// then in PATH.
type finder struct {
	executable func() (string, error)
	lookPath   func(string) (string, error)
}

var refworkFinder = finder{executable: os.Executable, lookPath: exec.LookPath}

func (f finder) find() (string, error) {
	dir := "unknown: this tool's own path could not be read"
	if exe, err := f.executable(); err == nil {
		dir = filepath.Dir(exe)
		if p := filepath.Join(dir, refworkTool); isProgram(p) {
			return p, nil
		}
	}
	p, err := f.lookPath(refworkTool)
	if err == nil {
		return p, nil
	}
	ref := field.Name("Reference")
	if errors.Is(err, exec.ErrDot) {
		return "", field.Errorf("Reference", refworkTool, "%s: %s was found only in the current directory through PATH, which is not trusted", ref, refworkTool)
	}
	return "", field.Errorf("Reference", refworkTool, "%s: %s is neither next to this tool (in %q) nor in PATH", ref, refworkTool, dir).
		WithHint("install it next to fb-pair (make build, or go install github.com/flybench/flybench/cmd/...), or give %s a command", ref)
}

// isProgram reports whether path is an executable regular file.
func isProgram(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
