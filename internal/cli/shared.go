package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	ucli "github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/lifecycle"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The helpers the tools share: inputs, the terminal, tags, a reading
// tool's interrupts, fb-lock's and fb-gate's --record sink, and the
// PROGRAM of fb-gate and fb-record.

// eachInput calls fn with a reader on every named file in order, or on
// stdin when none is named ("-" also names stdin).
func eachInput(c *ucli.Context, env Env, fn func(*ndjson.Reader) error) error {
	files := c.Args().Slice()
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		if err := withInput(env, name, fn); err != nil {
			return err
		}
	}
	return nil
}

func withInput(env Env, name string, fn func(*ndjson.Reader) error) error {
	var in io.Reader = env.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return withCode(ExitUsage, fmt.Errorf("open input: %w", err), "")
		}
		defer f.Close()
		in = f
	}
	return fn(ndjson.NewReader(in, name))
}

// warnTorn says on stderr that r's input ended mid-record, when it did.
func warnTorn(env Env, tool string, r *ndjson.Reader) {
	if t := r.Torn(); t != nil {
		fmt.Fprintf(env.Stderr, "%s: warning: %s: %s\n", tool, t.File, t.Warning())
	}
}

// useColor decides console colour: "auto" means a terminal and no NO_COLOR.
func useColor(mode string, env Env) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		return env.Getenv("NO_COLOR") == "" && isTerminal(env.Stdout), nil
	}
	return false, usageErrorf("--color %q: use auto, always or never", mode)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// tagFlag is --tag KEY=VALUE: the user's own fingerprint fields, recorded
// in the run and matched by baseline comparisons.
func tagFlag() ucli.Flag {
	return &ucli.StringSliceFlag{Name: "tag", Category: output, Usage: "KEY=VALUE recorded in the run's fingerprint (repeatable): revision, compiler flags, anything a baseline must match; keys as axis names (lowercase letters, digits, '.', '_', '-')"}
}

// maxTags bounds the tags one run records.
const maxTags = 32

// tagsOf reads --tag values into a map; a key given twice, a missing '='
// or a bad key is a usage error.
func tagsOf(values []string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	if len(values) > maxTags {
		return nil, usageErrorf("--tag given %d times: at most %d tags", len(values), maxTags)
	}
	tags := make(map[string]string, len(values))
	for _, v := range values {
		key, value, ok := strings.Cut(v, "=")
		if !ok {
			return nil, usageErrorf("--tag %q: want KEY=VALUE, e.g. --tag revision=abc123", v)
		}
		if err := axes.ValidName(key); err != nil {
			return nil, usageErrorf("--tag %q: key %v", v, err)
		}
		if len(value) > 256 {
			return nil, usageErrorf("--tag %q: value longer than 256 bytes", key)
		}
		if _, dup := tags[key]; dup {
			return nil, usageErrorf("--tag %q given twice", key)
		}
		tags[key] = value
	}
	return tags, nil
}

// interruptible runs a reading tool's action through lifecycle.Read: the
// first SIGINT or SIGTERM lets it read its input to its end; done says
// what it did with the input ("analysed", "reported").
func interruptible(env Env, tool, done string, action ucli.ActionFunc) ucli.ActionFunc {
	return func(c *ucli.Context) error {
		r := lifecycle.Read(env.Stderr, tool)
		err := r.End(action(c), done)
		if ie, ok := err.(*lifecycle.Interrupted); ok {
			return withCode(lifecycle.Code(ie.Signal), err, "")
		}
		return err
	}
}

// recordSink opens fb-lock's and fb-gate's --record destination; a FILE
// is appended to and opened close-on-exec so PROGRAM does not inherit it.
// The close function may be called more than once; it closes a file only.
func recordSink(dest string, env Env) (io.Writer, func() error, error) {
	nothing := func() error { return nil }
	switch dest {
	case "stdout":
		return env.Stdout, nothing, nil
	case "stderr":
		return env.Stderr, nothing, nil
	case "none":
		return io.Discard, nothing, nil
	case "":
		return nil, nil, usageErrorf("--record is empty: use stdout, stderr, none or a file name")
	}
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, withCode(ExitUsage, fmt.Errorf("--record %q: %w", dest, err), "")
	}
	closed := false
	return f, func() error {
		if closed {
			return nil
		}
		closed = true
		return f.Close()
	}, nil
}

// lookProgram resolves PROGRAM before the wait, so a typo fails at once.
// No PROGRAM gives "".
func lookProgram(args []string) (string, error) {
	if len(args) == 0 {
		return "", nil
	}
	path, err := exec.LookPath(args[0])
	var ee *exec.Error
	if errors.As(err, &ee) {
		err = ee.Err
	}
	if err != nil {
		return "", withCode(ExitCommandFailed, fmt.Errorf("program %q not found: %w", args[0], err), "")
	}
	return path, nil
}
