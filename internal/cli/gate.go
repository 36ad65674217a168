package cli

import (
	"fmt"
	"os"
	"syscall"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/gate"
	"github.com/flybench/flybench/internal/hostload"
	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

const gateDescription = `Waits until both the host-wide average CPU busy share and the busiest logical CPU's
have stayed at or below their limits, poll after poll, for the stable time; then writes a
gate record and replaces itself with PROGRAM, environment and open files unchanged.
Without PROGRAM it exits 0 once the host is quiet. This is a CPU preflight only: it does
not see I/O, thermal state, frequency changes or load that starts later. It needs Linux's
/proc/stat: elsewhere it exits 1 (unsupported_platform) without running PROGRAM.

Flags end at PROGRAM: everything after it is PROGRAM's.
Exit status: PROGRAM's, or 0 quiet without PROGRAM, 1 no /proc/stat here, 2 usage, 5 PROGRAM not
found or not executable, 10 the host was not quiet before --timeout (PROGRAM not run), 14 the
gate record could not be written (PROGRAM not run).`

func gateApp(env Env) *ucli.App {
	app := newApp(env, "fb-gate", "wait for a quiet host, then run a program", "[--] [PROGRAM [ARGS...]]", gateDescription)
	d := gate.DefaultPolicy
	app.Flags = []ucli.Flag{
		&ucli.Float64Flag{Name: "max-average", Category: host, Value: d.MaxAveragePct, Usage: "largest accepted host-wide CPU busy share, in percent"},
		&ucli.Float64Flag{Name: "max-core", Category: host, Value: d.MaxCorePct, Usage: "largest accepted busy share of any one logical CPU, in percent"},
		&ucli.DurationFlag{Name: "stable", Category: host, Value: d.Stable, Usage: "how long both limits must hold without a break"},
		&ucli.DurationFlag{Name: "poll", Category: host, Value: d.Poll, Usage: "interval between /proc/stat readings; every interval is judged (at most --timeout)"},
		&ucli.DurationFlag{Name: "timeout", Category: host, Value: d.Timeout, Usage: "longest wait before giving up with exit status 10 (at least --stable)"},
		&ucli.StringFlag{Name: "record", Category: output, Value: "stdout", Usage: "where the gate record goes: stdout (it joins the stream), stderr, none, or a FILE it is appended to"},
		&ucli.StringFlag{Name: "progress", Category: output, Value: "auto", Usage: "waiting status on stderr: auto (in place on a terminal, plain lines otherwise), tty, plain or none"},
	}
	app.Action = func(c *ucli.Context) error { return runGate(c, env) }
	return app
}

// execGated replaces the process with PROGRAM; a variable so it can be faked.
var execGated = syscall.Exec

func runGate(c *ucli.Context, env Env) error {
	p := gate.Policy{
		MaxAveragePct: c.Float64("max-average"), MaxCorePct: c.Float64("max-core"),
		Stable: c.Duration("stable"), Poll: c.Duration("poll"), Timeout: c.Duration("timeout"),
	}
	if err := p.Validate(); err != nil {
		return fieldUsage(err)
	}
	mode, err := progress.ParseMode(c.String("progress"), isTerminal(env.Stderr))
	if err != nil {
		return fieldUsage(err)
	}
	if err := gatePlatformRefusal(platform.GOOS); err != nil {
		return err
	}
	args := c.Args().Slice()
	path, err := lookProgram(args)
	if err != nil {
		return err
	}
	out, closeOut, err := recordSink(c.String("record"), env)
	if err != nil {
		return err
	}
	defer closeOut()
	disp := gate.NewDisplay(env.Stderr, mode, p)
	g, err := gate.Wait(p, hostload.ProcStat{}, probes.SystemWaiter{}, disp.Update)
	disp.Close(g)
	if err != nil {
		return err
	}
	if err := ndjson.NewWriter(out).Write(&g); err != nil {
		return outputFailed(err)
	}
	if err := closeOut(); err != nil {
		return outputFailed(fmt.Errorf("close --record file: %w", err))
	}
	if g.Outcome != ndjson.GatePassed {
		return withCode(ExitGateTimeout, disp.TimeoutError(),
			"find what keeps the CPUs busy (top, then press 1), wait longer with --timeout, or accept more with --max-average and --max-core")
	}
	if path == "" {
		return nil
	}
	err = execGated(path, args, os.Environ())
	return withCode(ExitCommandFailed, fmt.Errorf("exec %q: %w", path, err), "")
}

// gatePlatformRefusal stops fb-gate, before it waits or writes anything,
// on a platform goos without /proc/stat: it cannot see the load it gates
// on, and passing would be a clean bill it cannot give.
func gatePlatformRefusal(goos string) error {
	if err := platform.CheckOn("/proc/stat", goos); err != nil {
		return withCode(ExitFailure, err, "fb-gate judges quiescence from /proc/stat, which this platform lacks; run the next stage without fb-gate")
	}
	return nil
}
