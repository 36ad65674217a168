package simcount

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// Run is one counted execution of a command.
type Run struct {
	Argv []string
	// Env is the command's environment; nil is the tool's own.
	Env []string
	// Dir is its working directory; "" is the tool's own.
	Dir string
	// ReportFD gives the command an fd 3 it may write to (a batch's
	// report channel), whose content is discarded.
	ReportFD bool
	// Stdin is the file the command reads as its standard input, from
	// its start; "" is /dev/null.
	Stdin string
	// Names spells Stdin's request field in errors (Counter.Names).
	Names field.Names
}

// The request fields a count's errors name (measure.Request's paths).
const (
	fieldInput   = "Stdio.Input"
	fieldPrepare = "Hooks.Prepare"
)

// Count runs r under cachegrind and returns the instructions every
// process of it executed. Output is discarded (stderr is kept for the
// error of a failing run); a run that exits non-zero, dies of a signal or
// leaves a process without valgrind's summary is an error. Instructions a
// process executed before an exec are not counted (valgrind starts the
// new program afresh), and a child forked without exec counts its
// parent's instructions before the fork a second time.
func (t Tool) Count(ctx context.Context, r Run) (int64, error) {
	dir, err := os.MkdirTemp("", "flybench-cachegrind-")
	if err != nil {
		return 0, fmt.Errorf("log directory: %w", err)
	}
	defer os.RemoveAll(dir)
	args := append(append(append([]string{}, Flags...), "--log-file="+filepath.Join(dir, "log.%p"), "--"), r.Argv...)
	cmd := exec.CommandContext(ctx, t.Path, args...)
	cmd.Env, cmd.Dir = r.Env, r.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &limited{buf: &stderr, max: 4096}
	if r.ReportFD {
		sink, err := os.CreateTemp(dir, "report")
		if err != nil {
			return 0, fmt.Errorf("report channel: %w", err)
		}
		defer sink.Close()
		cmd.ExtraFiles = []*os.File{sink}
	}
	if r.Stdin != "" {
		in, err := os.Open(r.Stdin)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", r.Names.Spell(fieldInput), err)
		}
		defer in.Close()
		cmd.Stdin = in
	}
	if err := cmd.Run(); err != nil {
		return 0, failure(err, stderr.String())
	}
	return sumLogs(dir)
}

// failure describes a counted run that did not exit with status 0.
func failure(err error, stderr string) error {
	text := strings.TrimSpace(stderr)
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	if text == "" {
		return fmt.Errorf("under valgrind the command failed: %v", err)
	}
	return fmt.Errorf("under valgrind the command failed: %v: %s", err, text)
}

// sumLogs adds up the counts of every process's log.
func sumLogs(dir string) (int64, error) {
	logs, err := filepath.Glob(filepath.Join(dir, "log.*"))
	if err != nil || len(logs) == 0 {
		return 0, fmt.Errorf("valgrind wrote no log in %s", dir)
	}
	sort.Strings(logs)
	var total int64
	for _, name := range logs {
		n, err := parseFile(name)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

func parseFile(name string) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return ParseLog(f)
}

// limited keeps the last max bytes written to it.
type limited struct {
	buf *bytes.Buffer
	max int
}

func (l *limited) Write(p []byte) (int, error) {
	l.buf.Write(p)
	if extra := l.buf.Len() - l.max; extra > 0 {
		l.buf.Next(extra)
	}
	return len(p), nil
}

// environ is the tool's environment; a variable of the tool's stays
// visible to the counted command, as to the timed ones.
var environ = os.Environ
