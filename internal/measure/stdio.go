package measure

import (
	"errors"
	"io/fs"
	"os"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runner"
)

// checkStdio checks the commands' stdin and stdout before anything runs
// and settles them: "" for /dev/null. Showing the output implies sending
// stdout to this tool's stderr in the modes that have one.
func (p *plan) checkStdio() error {
	in, out := nullIsEmpty(p.Stdio.Input), nullIsEmpty(p.Stdio.Output)
	input, output := field.Name("Stdio.Input"), field.Name("Stdio.Output")
	switch {
	case !startsProcesses(p.Mode):
		if p.Stdio != (Stdio{}) {
			path, value := "Stdio.Input", p.Stdio.Input
			if value == "" {
				path, value = "Stdio.Output", p.Stdio.Output
			}
			return field.Errorf(path, value, "%s and %s apply to exec and batch modes: %s uses the commands' stdin and stdout itself; drop them", input, output, modeName(p.Mode))
		}
		return nil
	case p.Command.ShowOutput && p.Stdio.Output != "" && out != "inherit":
		return field.Errorf("Stdio.Output", p.Stdio.Output, "%s sends stdout to this tool's stderr, and %s %s elsewhere: drop one", field.Name("Command.ShowOutput"), output, p.Stdio.Output)
	case p.Command.ShowOutput:
		out = "inherit"
	}
	p.Stdio = Stdio{Input: in, Output: out}
	if in != "" {
		return checkInput(in)
	}
	return nil
}

// checkTimeout refuses a run time limit in worker mode, whose requests
// have their own.
func (p *plan) checkTimeout() error {
	if p.Config.Timeout > 0 && p.Mode == ModeWorker {
		return field.Errorf("Timeout", p.Config.Timeout, "%s limits the processes of exec, batch and gotest modes: a worker's requests are limited by %s; drop %s",
			field.Name("Timeout"), field.Name("Command.WorkerRequest"), field.Name("Timeout"))
	}
	return nil
}

func nullIsEmpty(s string) string {
	if s == "null" {
		return ""
	}
	return s
}

func checkInput(path string) error {
	fail := func(format string, args ...any) error {
		args = append([]any{field.Name("Stdio.Input"), path}, args...)
		return field.Errorf("Stdio.Input", path, "%s %q: "+format, args...).WithHint("give a readable file, or %s null", field.Name("Stdio.Input"))
	}
	f, err := os.Open(path)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return fail("%v", pe.Err)
	} else if err != nil {
		return fail("%v", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		return fail("not a readable file")
	}
	return nil
}

// stdoutFile opens the file or stream the commands' stdout goes to: nil
// for /dev/null and a drained pipe. A file is truncated here, once; a
// resumed collection appends to it, as it does to the archive.
func (m *measurement) stdoutFile() (*os.File, error) {
	switch m.Stdio.Output {
	case "", "pipe":
		return nil, nil
	case "inherit":
		return m.env.stderrFile(), nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if m.Resume != nil {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	path, output := m.Stdio.Output, field.Name("Stdio.Output")
	f, err := os.OpenFile(path, flags, 0o666)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return nil, m.errorf("Stdio.Output", path, "%s %q: %v", output, path, pe.Err)
	} else if err != nil {
		return nil, m.errorf("Stdio.Output", path, "%s %q: %v", output, path, err)
	}
	if out, ok := m.env.Stdout.(*os.File); ok && sameFile(f, out) {
		f.Close()
		return nil, m.errorf("Stdio.Output", path, "%s %q is this tool's stdout, which carries the record stream", output, path)
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
	opts.Input = m.Stdio.Input
	opts.Stdout, opts.DrainStdout = m.stdout, m.Stdio.Output == "pipe"
}
