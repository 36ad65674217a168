package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// ioHookFlags are the flags for the commands' stdin and stdout and for
// the untimed hooks around them.
func ioHookFlags() []ucli.Flag {
	return []ucli.Flag{
		&ucli.BoolFlag{Name: "show-output", Usage: "send the commands' and hooks' stdout and stderr to this tool's stderr instead of discarding them (--output inherit, plus stderr)"},
		&ucli.StringFlag{Name: "input", Value: "null", Usage: "FILE every run of the commands reads as stdin, from its start; null is /dev/null"},
		&ucli.StringFlag{Name: "output", Value: "null", Usage: "where the commands' stdout goes: null (/dev/null), pipe (drained by this tool, as by a pipeline's consumer), inherit (this tool's stderr; its stdout carries the stream) or FILE (truncated once at start)"},
		&ucli.StringSliceFlag{Name: "prepare", Aliases: []string{"p"}, Usage: "untimed command run before every batch: once for every command, or once per command in order"},
		&ucli.StringSliceFlag{Name: "conclude", Usage: "untimed command run after every batch: once for every command, or once per command in order"},
		&ucli.StringSliceFlag{Name: "setup", Aliases: []string{"s"}, Usage: "untimed command run once before warm-up: once for every command, or once per command in order"},
		&ucli.StringSliceFlag{Name: "cleanup", Aliases: []string{"c"}, Usage: "untimed command run once at the end, whatever the outcome: once for every command, or once per command in order"},
	}
}

// stdioFlags are --input and --output as checked: input "" is /dev/null,
// output "" is /dev/null.
type stdioFlags struct {
	input, output string
}

// stdioOf reads and checks --input and --output before anything runs.
// --show-output implies --output inherit in the modes that have --output.
func stdioOf(c *ucli.Context, mode string) (stdioFlags, error) {
	s := stdioFlags{input: c.String("input"), output: c.String("output")}
	if s.input == "null" {
		s.input = ""
	}
	if s.output == "null" {
		s.output = ""
	}
	show := c.Bool("show-output")
	switch {
	case mode == "worker" || mode == "gotest":
		if c.IsSet("input") || c.IsSet("output") {
			return stdioFlags{}, usageErrorf("--input and --output apply to exec and batch modes: --%s uses the commands' stdin and stdout itself; drop them", mode)
		}
		return stdioFlags{}, nil
	case show && c.IsSet("output") && s.output != "inherit":
		return s, usageErrorf("--show-output sends stdout to this tool's stderr, and --output %s elsewhere: drop one", c.String("output"))
	case show:
		s.output = "inherit"
	}
	if s.input != "" {
		if err := checkInput(s.input); err != nil {
			return s, withCode(ExitUsage, err, "give a readable file, or --input null")
		}
	}
	return s, nil
}

func checkInput(path string) error {
	f, err := os.Open(path)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return fmt.Errorf("--input %q: %w", path, pe.Err)
	} else if err != nil {
		return fmt.Errorf("--input %q: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		return fmt.Errorf("--input %q: not a readable file", path)
	}
	return nil
}

// stdoutFile opens what --output FILE or inherit names for the commands'
// stdout, or returns nil for null and pipe. A file is truncated here, once;
// --resume appends to it, as it does to the archive.
func (m *measurement) stdoutFile() (*os.File, error) {
	switch m.stdio.output {
	case "", "pipe":
		return nil, nil
	case "inherit":
		return stderrFile(m.env), nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if m.resume != nil {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(m.stdio.output, flags, 0o666)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return nil, usageErrorf("--output %q: %v", m.stdio.output, pe.Err)
	} else if err != nil {
		return nil, usageErrorf("--output %q: %v", m.stdio.output, err)
	}
	if out, ok := m.env.Stdout.(*os.File); ok && sameFile(f, out) {
		f.Close()
		return nil, usageErrorf("--output %q is this tool's stdout, which carries the record stream", m.stdio.output)
	}
	m.outFile = f
	return f, nil
}

func sameFile(a, b *os.File) bool {
	x, err1 := a.Stat()
	y, err2 := b.Stat()
	return err1 == nil && err2 == nil && x.Mode()&os.ModeCharDevice == 0 && os.SameFile(x, y)
}

// stdioOptions sets the commands' stdin and stdout in opts.
func (m *measurement) stdioOptions(opts *runner.Options) {
	opts.Input = m.stdio.input
	opts.Stdout, opts.DrainStdout = m.stdout, m.stdio.output == "pipe"
}

// hookSet is one hook flag: a command for every case, or one per
// measured case in case order (a --reference workload has none).
type hookSet struct {
	all  string
	each []string
}

// caseHooks are the four hook flags.
type caseHooks struct {
	prepare, conclude, setup, cleanup hookSet
}

// hooksOf reads the hook flags for cases measured cases. With a scan
// (params), a hook given once that uses a parameter's {NAME} becomes one
// per case with the case's values substituted, as in the command.
func hooksOf(c *ucli.Context, cases int, params []map[string]string) (caseHooks, error) {
	var h caseHooks
	for _, f := range []struct {
		name string
		set  *hookSet
	}{{"prepare", &h.prepare}, {"conclude", &h.conclude}, {"setup", &h.setup}, {"cleanup", &h.cleanup}} {
		var err error
		if *f.set, err = hookSetOf(f.name, c.StringSlice(f.name), cases, params); err != nil {
			return h, err
		}
	}
	return h, nil
}

func hookSetOf(flag string, values []string, cases int, params []map[string]string) (hookSet, error) {
	switch {
	case len(values) == 0:
		return hookSet{}, nil
	case len(values) == 1 && !usesParams(values[0], params):
		return hookSet{all: values[0]}, nil
	case len(values) != 1 && len(values) != cases:
		what := "command"
		if params != nil {
			what = "scanned case"
		}
		return hookSet{}, usageErrorf("%d --%s values for %d %ss: give one for all, or exactly one per %s, in order", len(values), flag, cases, what, what)
	}
	each := make([]string, cases)
	for i := range each {
		each[i] = values[min(i, len(values)-1)]
		if i < len(params) {
			each[i] = substitute(each[i], params[i])
		}
	}
	return hookSet{each: each}, nil
}

// usesParams reports whether a hook names a scanned parameter as the
// command does ({NAME}, not a shell's ${NAME}).
func usesParams(text string, params []map[string]string) bool {
	if len(params) == 0 {
		return false
	}
	for _, name := range placeholders(text) {
		if _, ok := params[0][name]; ok {
			return true
		}
	}
	return false
}

func substitute(text string, set map[string]string) string {
	pairs := make([]string, 0, 2*len(set))
	for name, v := range set {
		pairs = append(pairs, "{"+name+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// of is case c's command of the set, or "" when it has none.
func (s hookSet) of(c int) string {
	if s.each == nil {
		return s.all
	}
	if c < len(s.each) {
		return s.each[c]
	}
	return ""
}

// engineHooks turns the hook commands into the engine's hooks. Setup and
// cleanup given per case run in case order; every cleanup runs even when
// one fails, and the first failure is reported.
func (m *measurement) engineHooks() collect.Hooks {
	h := m.flags.hooks
	return collect.Hooks{
		Setup:    m.onceHook(h.setup),
		Prepare:  m.caseHook(h.prepare),
		Conclude: m.caseHook(h.conclude),
		Cleanup:  m.onceHook(h.cleanup),
	}
}

func (m *measurement) caseHook(s hookSet) func(int) error {
	if s.all == "" && s.each == nil {
		return nil
	}
	return func(c int) error {
		text := s.of(c)
		if text == "" {
			return nil
		}
		err := m.runHook(text)
		if err != nil && s.each != nil {
			err = fmt.Errorf("%s: %w", m.cases[c].Name, err)
		}
		return err
	}
}

func (m *measurement) onceHook(s hookSet) func() error {
	if s.each == nil {
		if s.all == "" {
			return nil
		}
		return func() error { return m.runHook(s.all) }
	}
	return func() error {
		var first error
		for c, text := range s.each {
			if err := m.runHook(text); err != nil && first == nil {
				first = fmt.Errorf("%s: %w", m.cases[c].Name, err)
			}
		}
		return first
	}
}

func (m *measurement) runHook(text string) error {
	return runner.Hook(text, m.flags.shell, m.flags.showOutput, stderrFile(m.env))
}

// recordHooks puts the hooks in the run record: those for every case in
// its configuration, those per case on the cases.
func (m *measurement) recordHooks(rc *ndjson.Config) {
	h := m.flags.hooks
	rc.Prepare, rc.Conclude, rc.Setup, rc.Cleanup = h.prepare.all, h.conclude.all, h.setup.all, h.cleanup.all
	for c := range m.cases {
		ch := ndjson.CaseHooks{}
		for _, f := range []struct {
			set hookSet
			dst *string
		}{{h.prepare, &ch.Prepare}, {h.conclude, &ch.Conclude}, {h.setup, &ch.Setup}, {h.cleanup, &ch.Cleanup}} {
			if f.set.each != nil {
				*f.dst = f.set.of(c)
			}
		}
		if ch != (ndjson.CaseHooks{}) {
			m.cases[c].Hooks = &ch
		}
	}
}
