package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/refwork"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// refworkTool is the program of the built-in reference workloads.
const refworkTool = "fb-refwork"

func referenceFlag() ucli.Flag {
	return &ucli.StringFlag{Name: "reference", Usage: "run a reference workload as one more case, last, and score every case in its units: int or mem (the built-in " +
		refworkTool + ", found next to this tool, then in PATH; man fb-refwork(1)) or a command; exec and batch modes"}
}

// reference is the --reference workload: a built-in kind run by
// fb-refwork, or a command of the user's.
type reference struct {
	kind    string // int or mem; "" for a command
	program string // fb-refwork's path, for a built-in
	command string // the user's command
}

// referenceOf reads --reference; nil when it is unset.
func referenceOf(c *ucli.Context, mode string) (*reference, error) {
	value := c.String("reference")
	switch {
	case !c.IsSet("reference"):
		return nil, nil
	case strings.TrimSpace(value) == "":
		return nil, usageErrorf("--reference is empty: give int, mem or a command")
	case mode == "worker":
		return nil, usageErrorf("--reference cannot be used with --worker: worker cases run inside the workers' own processes, and the reference workload is a program of its own")
	case mode == "gotest":
		return nil, usageErrorf("--reference cannot be used with --gotest: each side is a Go benchmark timed by the test binary, and the reference workload is not one")
	case !slices.Contains(refwork.Kinds, value):
		return &reference{command: value}, nil
	}
	path, err := refworkFinder.find()
	if err != nil {
		return nil, err
	}
	return &reference{kind: value, program: path}, nil
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
func (r *reference) commandFor(mode string, report bool) string {
	if r.kind == "" {
		return r.command
	}
	line := runner.QuoteCommand([]string{r.program})
	if mode == "batch" {
		line += " --iterations " + runner.Placeholder
		if report {
			line += " --report"
		}
	}
	return line + " " + r.kind
}

// addReference appends the reference workload as the last side, named
// apart from the measured cases (given is the number of --name values).
func (r *measureRequest) addReference(given int) error {
	if r.ref == nil {
		return nil
	}
	if given > len(r.sides) {
		return usageErrorf("%d --name values for %d commands (the reference workload is named by itself)", given, len(r.sides))
	}
	if r.cfg.Until.Rule == "decision" && len(r.sides) < 2 {
		return usageErrorf("--until decision needs 2 or more commands to compare, and the reference workload is never compared: use --until width=P%%")
	}
	name := r.ref.name()
	for n := 2; slices.Contains(r.names, name); n++ {
		name = fmt.Sprintf("%s (%d)", r.ref.name(), n)
	}
	r.sides = append(r.sides, side{command: r.ref.commandFor(r.mode, false), worker: len(r.sides)})
	r.names = append(r.names, name)
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
		return s, usageErrorf("--reference %s: the commands declare custom axes (%s), which %s does not report; give --reference a command that declares them", m.ref.kind, axisNames(first), refworkTool)
	}
	s.command = m.ref.commandFor(m.mode, first.elapsed)
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
	if errors.Is(err, exec.ErrDot) {
		return "", usageErrorf("--reference: %s was found only in the current directory through PATH, which is not trusted", refworkTool)
	}
	return "", withCode(ExitUsage, fmt.Errorf("--reference: %s is neither next to this tool (in %q) nor in PATH", refworkTool, dir),
		"install it next to fb-pair (make build, or go install github.com/flybench/flybench/cmd/...), or give --reference a command")
}

// isProgram reports whether path is an executable regular file.
func isProgram(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0
}
