// Package runner runs benchmarked commands as child processes, the exec
// mode of flybench: one logical operation is one run of a command, and a
// batch of N is N consecutive runs timed as a whole.
//
// A Command is prepared once (program resolved, /dev/null opened, stderr
// capture created) so that a timed batch does nothing between its two clock
// reads but fork, exec and wait, plus one lseek that rewinds the capture
// (and one that rewinds an --input file), and with a time limit or
// survivors to kill, one clock read and one kill(2) per run.
// Children never write to the tool's stdout, which carries the record
// stream: their stdout goes to /dev/null (or Options.Stdout, or a drained
// pipe) and their stderr to the capture, or both go to the Output file
// when output is shown. Stdin is /dev/null or the Options.Input file.
//
// Each child is the leader of its own process group (Setpgid). Kill signals
// the whole group, so the children of a --shell command die with it, and
// the terminal's SIGINT reaches only the tool, which records what it has
// and then calls Kill; a child never dies of Ctrl-C before the tool knows.
// The cost is that a child is a background job: it may not read the
// terminal (stdin is /dev/null anyway), and with `stty tostop` a child
// writing shown output to the terminal is stopped until Kill. If the tool
// itself is killed with SIGKILL its current child runs on to completion.
package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ErrKilled is returned by Run when Kill stopped the batch.
var ErrKilled = errors.New("command killed")

// Options describe a command to prepare.
type Options struct {
	// Argv is the program and its arguments; Argv[0] is looked up in $PATH
	// when it has no slash, and is resolved against Dir when relative.
	Argv []string
	// Dir is the working directory of every run; "" is the tool's own.
	Dir string
	// Env is the environment of every run; nil is the tool's own.
	Env []string
	// ShowOutput sends the child's stdout and stderr to Output instead of
	// discarding stdout and capturing stderr for error messages.
	ShowOutput bool
	// Output receives shown output; nil is os.Stderr. It must not be the
	// tool's stdout, which carries the record stream.
	Output *os.File
	// Input is the file every run reads as stdin, from its start when it
	// is a regular file (rewound before each run); "" is /dev/null.
	Input string
	// Stdout receives the child's stdout when output is not shown; nil is
	// /dev/null. DrainStdout instead gives it a pipe that the Command
	// reads and discards while the child runs (stdio.go).
	Stdout      *os.File
	DrainStdout bool
	// IgnoreFailure makes a non-zero exit or a death by signal not an error.
	IgnoreFailure bool
	// Batch makes one run perform n logical operations itself: Run(n)
	// starts one process with every "{n}" in its arguments replaced by n,
	// FLYBENCH_N=n in its environment and the report channel on fd 3.
	Batch bool
	// OutputToReport (batch mode) also sends the process's stdout and
	// stderr to the report channel, for programs that print their results,
	// such as a Go test binary.
	OutputToReport bool
	// ReadIO adds each run's /proc/PID/io storage counters to Usage. They
	// are read after the child exits and before it is reaped, outside no
	// timed region of their own: the read is inside the batch's time.
	ReadIO bool
	// KillSurvivors checks each run's process group once the run is
	// reaped: processes still in it (a background job, a child it did not
	// wait for) are killed with SIGKILL, and the run is counted
	// (Escaped). The check is one kill(2) with signal 0.
	KillSurvivors bool
	// Contain makes a run that leaves processes of its process group alive
	// when it exits fail with an *EscapeError: their CPU time is not in the
	// run's rusage (--timer cpu). They are killed, as with KillSurvivors.
	Contain bool
	// Peak measures each run's peak resident set (Usage.MaxRSSKiB) with
	// the method ChoosePeak picked, and records the floor below which a
	// value is only an upper bound (Usage.PeakFloorKiB). With the
	// launcher, every run starts through it (peak.go).
	Peak bool
	// Charged measures each batch's peak charged memory in a cgroup of the
	// command's own (Usage.ChargedPeakBytes, memcg.go).
	Charged bool
}

// Command is a prepared command. Run it from one goroutine at a time; Kill
// may be called from any goroutine at any time.
type Command struct {
	argv          []string
	path          string
	attr          syscall.ProcAttr
	devNull       *os.File
	output        *os.File // shown output, kept alive while its fd is in attr
	capture       *os.File // stderr capture (a memfd on Linux); nil when output is shown
	captureFD     int
	ignoreFailure bool
	readIO        bool
	contain       bool
	killSurvivors bool
	escaped       int64 // runs that left processes of their group alive
	batch         *batch
	peak          *peakState // nil unless Options.Peak
	cg            *memcg     // nil unless Options.Charged
	io            stdio      // --input, --output pipe

	guard   Guard
	dog     watchdog      // the time limit of a run (timeout.go)
	longest time.Duration // the longest run completed

	status  syscall.WaitStatus
	rusage  syscall.Rusage
	usage   Usage
	lastPID int
}

// New prepares a command. Its error names the program when it cannot be
// found or is not executable.
func New(opts Options) (*Command, error) {
	if len(opts.Argv) == 0 || opts.Argv[0] == "" {
		return nil, errors.New("empty command")
	}
	path, err := LookPath(opts.Argv[0], opts.Dir)
	if err != nil {
		return nil, err
	}
	if err := CheckDir(opts.Dir); err != nil {
		return nil, err
	}
	c := &Command{argv: slices.Clone(opts.Argv), path: path, ignoreFailure: opts.IgnoreFailure, readIO: opts.ReadIO, contain: opts.Contain,
		killSurvivors: opts.KillSurvivors || opts.Contain, captureFD: -1}
	files, err := c.openFiles(opts)
	if err == nil {
		files, err = c.openStdio(files, opts)
	}
	if err == nil && opts.Batch {
		files, err = c.setupBatch(files)
		if err == nil && opts.OutputToReport {
			files[1], files[2] = files[3], files[3]
		}
	}
	if err == nil && opts.Peak {
		files, err = c.setupPeak(files)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	c.attr = syscall.ProcAttr{Dir: opts.Dir, Env: env, Files: files, Sys: &syscall.SysProcAttr{Setpgid: true}}
	if opts.Charged {
		c.setupCgroup()
	}
	return c, nil
}

// LookPath resolves the program the way a shell would, except that a
// relative path with a slash is taken relative to dir, where it will run.
// The result is absolute so that the child's chdir cannot change it.
func LookPath(name, dir string) (string, error) {
	if !strings.Contains(name, "/") {
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("program %q not found in $PATH", name)
		}
		return p, nil
	}
	file := name
	if dir != "" && !filepath.IsAbs(name) {
		file = filepath.Join(dir, name)
	}
	if _, err := exec.LookPath(file); err != nil {
		if e := (*fs.PathError)(nil); errors.As(err, &e) {
			err = e.Err // the path is in the message already
		} else if e := (*exec.Error)(nil); errors.As(err, &e) {
			err = e.Err
		}
		return "", fmt.Errorf("cannot run %q: %w", name, err)
	}
	return filepath.Abs(file)
}

// CheckDir checks a working directory ("" is the current one).
func CheckDir(dir string) error {
	if dir == "" {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("working directory %q is not a directory", dir)
	}
	return nil
}

// openFiles opens what the child's fds 0, 1 and 2 will be.
func (c *Command) openFiles(opts Options) ([]uintptr, error) {
	var err error
	if c.devNull, err = os.OpenFile(os.DevNull, os.O_RDWR, 0); err != nil {
		return nil, fmt.Errorf("open %s: %w", os.DevNull, err)
	}
	null := c.devNull.Fd()
	if opts.ShowOutput {
		if c.output = opts.Output; c.output == nil {
			c.output = os.Stderr
		}
		out := c.output.Fd()
		if out == 1 {
			return nil, errors.New("shown command output must not go to stdout, which carries the record stream")
		}
		return []uintptr{null, out, out}, nil
	}
	f, err := MemFile("flybench-stderr", "stderr capture")
	if err != nil {
		return nil, fmt.Errorf("create stderr capture: %w", err)
	}
	fd := int(f.Fd())
	c.capture, c.captureFD = f, fd
	return []uintptr{null, null, uintptr(fd)}, nil
}

// Close releases the files New opened. It must not be called during Run.
func (c *Command) Close() error {
	var errs []error
	files := []*os.File{c.devNull, c.capture}
	if c.batch != nil {
		files = append(files, c.batch.report)
	}
	if c.peak != nil && c.peak.report != nil {
		files = append(files, c.peak.report)
		c.peak.report = nil
	}
	for _, f := range files {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	c.devNull, c.capture, c.captureFD = nil, nil, -1
	return errors.Join(append(errs, c.closeStdio(), c.closeCgroup())...)
}

// Argv is the command's argument vector as given.
func (c *Command) Argv() []string { return slices.Clone(c.argv) }

// Escaped is how many runs so far left processes of their group alive
// when they exited, which were killed (Options.KillSurvivors).
func (c *Command) Escaped() int64 { return c.escaped }

// Usage is what the children of the last batch used, summed over its runs.
func (c *Command) Usage() Usage { return c.usage }
