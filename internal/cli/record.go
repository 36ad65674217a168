package cli

import (
	"errors"
	"fmt"
	"os/exec"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/lifecycle"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/internal/record"
	"github.com/flybench/flybench/internal/version"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

const recordDescription = `Records spans of work a program drives itself (requests, queue messages, frames): it
listens on a Unix stream socket (or a FIFO with --fifo), receives spans from any number of
connections in the span protocol (man fb-span(7)) or as the Go recorder package's NDJSON
stream, keeps at most --capacity spans per benchmark by the --retention policy (every
observation is counted), and writes the recording to stdout when it ends (man
fb-stream(5): recording, process, span and recording_end records).

With PROGRAM, fb-record starts it in a process group of its own with the socket's path in
FLYBENCH_RECORD_SOCKET (the FIFO's in FLYBENCH_RECORD_FIFO), its stdout sent to stderr,
and records until it exits. SIGINT and SIGTERM are forwarded to it; fb-record reaps it and
still writes the whole stream. Without PROGRAM it records until --duration or a signal.

On a terminal stderr shows fixed rows redrawn every --refresh: elapsed time, CPU and
resident memory of fb-record plus PROGRAM, and per benchmark the spans done, live (begun,
not ended), errors (failure and timeout) and the median and p95 of its last 1000 spans.

Flags end at PROGRAM: everything after it is PROGRAM's.
Exit status: 0 ok, 2 usage, 5 PROGRAM not found or it failed (the stream is written), 14 the
stream could not be written, 130 SIGINT, 143 SIGTERM (the stream is written).`

func recordApp(env Env) *ucli.App {
	app := newApp(env, "fb-record", "record spans a program drives, with a live display",
		"[--] [PROGRAM [ARGS...]]", recordDescription)
	app.Flags = []ucli.Flag{
		&ucli.StringFlag{Name: "socket", Category: hooksIO, Usage: "Unix socket to listen on (it must not exist; default: span.sock in a new private temporary directory)"},
		&ucli.StringFlag{Name: "fifo", Category: hooksIO, Usage: "make a FIFO at this path and read span-protocol lines from it instead of a socket"},
		&ucli.StringFlag{Name: "retention", Category: sampling, Value: ndjson.RetainReservoir, Usage: "which spans are kept: reservoir (uniform over all, seeded), first or latest"},
		&ucli.IntFlag{Name: "capacity", Category: sampling, Value: 10000, Usage: "spans kept per benchmark"},
		&ucli.Uint64Flag{Name: "seed", Category: sampling, Value: 1, Usage: "seed of the reservoir"},
		&ucli.DurationFlag{Name: "refresh", Category: output, Value: 100 * time.Millisecond, Usage: "redraw interval of the live display on a terminal (at least 10ms)"},
		&ucli.StringFlag{Name: "progress", Category: output, Value: "auto", Usage: "live display on stderr: auto (in place on a terminal, a line a second otherwise), tty, plain or none"},
		&ucli.DurationFlag{Name: "duration", Category: budget, Usage: "stop recording after this long (0: until PROGRAM exits or a signal)"},
	}
	app.Action = func(c *ucli.Context) error { return runRecord(c, env) }
	return app
}

func runRecord(c *ucli.Context, env Env) error {
	opt, err := recordOptions(c, env)
	if err != nil {
		return err
	}
	if opt.Path, err = lookProgram(opt.Program); err != nil {
		return err
	}
	cleanup, err := opt.DefaultEndpoint()
	if err != nil {
		return err
	}
	defer cleanup()
	if opt.Mode != progress.None {
		fmt.Fprintf(env.Stderr, "fb-record: listening on %s\n", opt.Endpoint())
	}
	opt.Meta = record.NewMeta("fb-record", version.Version)
	res, err := record.Run(opt, probes.Monotonic{}, env.Stdout, env.Stderr)
	var se *record.StartError
	if errors.As(err, &se) {
		return withCode(ExitCommandFailed, err, "")
	}
	if err != nil {
		return err
	}
	if opt.Mode != progress.None {
		fmt.Fprintln(env.Stderr, "fb-record: "+res.Summary())
	}
	return recordOutcome(res, opt.Program)
}

func recordOptions(c *ucli.Context, env Env) (record.Options, error) {
	opt := record.Options{
		Policy: record.Policy{Name: c.String("retention"), Capacity: c.Int("capacity"), Seed: c.Uint64("seed")},
		Socket: c.String("socket"), FIFO: c.String("fifo"),
		Refresh: c.Duration("refresh"), Duration: c.Duration("duration"), Program: c.Args().Slice(),
	}
	if err := opt.Check(); err != nil {
		if fe := fieldUsage(err); fe != err {
			return opt, fe
		}
		return opt, withCode(ExitUsage, err, "") // the socket could not be examined
	}
	var err error
	if opt.Mode, err = progress.ParseMode(c.String("progress"), isTerminal(env.Stderr)); err != nil {
		return opt, fieldUsage(err)
	}
	return opt, nil
}

// recordOutcome is the exit status: a write error first, then a signal,
// then PROGRAM's failure.
func recordOutcome(res record.Result, program []string) error {
	switch {
	case res.WriteErr != nil:
		return outputFailed(res.WriteErr)
	case res.Signal != nil:
		return withCode(lifecycle.Code(res.Signal), fmt.Errorf("interrupted by %s; the recording was written", lifecycle.Name(res.Signal)), "")
	case res.Reason == record.ReasonProgramFailed:
		var xe *exec.ExitError
		if errors.As(res.ExitErr, &xe) {
			return withCode(ExitCommandFailed, fmt.Errorf("program %q %s; the recording was written", program[0], xe.ProcessState), "")
		}
		return withCode(ExitCommandFailed, fmt.Errorf("program %q: %w", program[0], res.ExitErr), "")
	}
	return nil
}
