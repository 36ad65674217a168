package refwork

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/version"
)

// The batch convention of fb-worker(7), as package runner defines it:
// fb-refwork stays a small program of its own, so that its start-up, which
// every exec-mode run of the reference pays, is not inflated by the rest
// of flybench.
const (
	envN        = "FLYBENCH_N"
	envReportFD = "FLYBENCH_REPORT_FD"
	reportFD    = 3
)

// Exit statuses of fb-refwork, the same as every flybench tool's.
const (
	exitFailure = 1
	exitUsage   = 2
	exitOutput  = 14
)

// UsageError is a bad workload, flag or value: exit status 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// OutputError is a report channel that could not be written: exit
// status 14, the output of every flybench tool that could not be written.
type OutputError struct{ Err error }

func (e *OutputError) Error() string { return e.Err.Error() }
func (e *OutputError) Unwrap() error { return e.Err }

func usageErrorf(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// App is fb-refwork: errors go to stderr, the environment is read through
// getenv. Its action returns a *UsageError for bad usage.
func App(stderr io.Writer, getenv func(string) string) *ucli.App {
	return &ucli.App{
		Name: "fb-refwork", HelpName: "fb-refwork", Version: version.Version,
		Usage:     "run a fixed reference workload: integer arithmetic or a memory stream",
		UsageText: "fb-refwork [options] int|mem", ArgsUsage: "int|mem",
		Description: fmt.Sprintf("Performs N operations of a fixed workload and exits; fb-pair --reference int|mem runs it\n"+
			"beside the measured commands so their times can be divided by it (man fb-refwork(1)).\n"+
			"  int  %d xorshift steps on one 64-bit register: no memory traffic, no allocation\n"+
			"  mem  one sequential read of a %d MiB buffer, filled once per process before the first operation\n"+
			"N is --iterations, or FLYBENCH_N in batch mode (man fb-worker(7)).\n\n"+
			"Exit status: 0 done, 2 usage, 14 the report channel could not be written.",
			IntSteps, MemBytes>>20),
		Writer: os.Stdout, ErrWriter: stderr,
		HideHelpCommand: true, DisableSliceFlagSeparator: true,
		ExitErrHandler: func(*ucli.Context, error) {},
		OnUsageError: func(_ *ucli.Context, err error, _ bool) error {
			return &UsageError{Err: fmt.Errorf("%w (see 'fb-refwork --help')", err)}
		},
		Flags: []ucli.Flag{
			&ucli.Int64Flag{Name: "iterations", Aliases: []string{"n"}, Value: 1, EnvVars: []string{envN}, Usage: "operations to perform (at least 1)"},
			&ucli.BoolFlag{Name: "verbose", Usage: "print the work done (operations, units of work, checksum) and its time on stderr"},
			&ucli.BoolFlag{Name: "report", Usage: "write \"done N elapsed_ns=T\" on the batch report channel (" + envReportFD + ", else fd 3): T covers the N operations, the mem buffer's set-up excluded"},
		},
		Action: func(c *ucli.Context) error { return action(c, stderr, getenv) },
	}
}

// BatchFlags are the flags of a batch-mode run of fb-refwork, to follow
// its program name, each with a leading blank: N operations from n (the
// placeholder the harness fills) and, with report, its own elapsed time on
// the report channel.
func BatchFlags(n string, report bool) string {
	s := " --iterations " + n
	if report {
		s += " --report"
	}
	return s
}

func action(c *ucli.Context, stderr io.Writer, getenv func(string) string) error {
	if c.NArg() != 1 {
		return usageErrorf("give one workload: %s", Describe())
	}
	n := c.Int64("iterations")
	if n < 1 {
		return usageErrorf("--iterations %d: give at least 1", n)
	}
	kind := c.Args().First()
	w, err := New(kind)
	if err != nil {
		return &UsageError{Err: err}
	}
	start := time.Now()
	work := w.Run(n)
	elapsed := time.Since(start)
	if c.Bool("verbose") {
		fmt.Fprintf(stderr, "fb-refwork: %s: %d operations, %d %s, checksum %016x, %v\n",
			kind, work.Ops, work.Units, UnitName(kind), work.Checksum, elapsed)
	}
	if !c.Bool("report") {
		return nil
	}
	return writeDone(getenv, n, elapsed)
}

// writeDone writes the batch report line on the report channel.
func writeDone(getenv func(string) string, n int64, elapsed time.Duration) error {
	fd := reportFD
	if s := getenv(envReportFD); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return usageErrorf("%s=%q is not a file descriptor", envReportFD, s)
		}
		fd = v
	}
	f := os.NewFile(uintptr(fd), "report channel")
	if _, err := fmt.Fprintf(f, "done %d elapsed_ns=%d\n", n, elapsed.Nanoseconds()); err != nil {
		return &OutputError{Err: fmt.Errorf("report channel (fd %d): %w; run with --batch, or drop --report", fd, err)}
	}
	return nil
}

// Main runs fb-refwork on the process's arguments and returns its exit
// status, printing an error the way every flybench tool does.
func Main() int {
	err := App(os.Stderr, os.Getenv).Run(os.Args)
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "fb-refwork: error: %s\n", err)
	if ue := (*UsageError)(nil); errors.As(err, &ue) {
		return exitUsage
	}
	if oe := (*OutputError)(nil); errors.As(err, &oe) {
		return exitOutput
	}
	return exitFailure
}
