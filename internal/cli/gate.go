package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

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
		&ucli.Float64Flag{Name: "max-average", Value: d.MaxAveragePct, Usage: "largest accepted host-wide CPU busy share, in percent"},
		&ucli.Float64Flag{Name: "max-core", Value: d.MaxCorePct, Usage: "largest accepted busy share of any one logical CPU, in percent"},
		&ucli.DurationFlag{Name: "stable", Value: d.Stable, Usage: "how long both limits must hold without a break"},
		&ucli.DurationFlag{Name: "poll", Value: d.Poll, Usage: "interval between /proc/stat readings; every interval is judged (at most --timeout)"},
		&ucli.DurationFlag{Name: "timeout", Value: d.Timeout, Usage: "longest wait before giving up with exit status 10 (at least --stable)"},
		&ucli.StringFlag{Name: "record", Value: "stdout", Usage: "where the gate record goes: stdout (it joins the stream), stderr, none, or a FILE it is appended to"},
		&ucli.StringFlag{Name: "progress", Value: "auto", Usage: "waiting status on stderr: auto (in place on a terminal, plain lines otherwise), tty, plain or none"},
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
	disp := &gateDisplay{w: env.Stderr, mode: mode, policy: p}
	disp.start()
	g, err := gate.Wait(p, hostload.ProcStat{}, probes.SystemWaiter{}, disp.update)
	disp.close(g)
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
		return withCode(ExitGateTimeout, timeoutError(p, disp.last),
			"find what keeps the CPUs busy (top, then press 1), wait longer with --timeout, or accept more with --max-average and --max-core")
	}
	if path == "" {
		return nil
	}
	err = execGated(path, args, os.Environ())
	return withCode(ExitCommandFailed, fmt.Errorf("exec %q: %w", path, err), "")
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

// timeoutError says what the last judged poll saw against the limits.
func timeoutError(p gate.Policy, last *gate.Status) error {
	head := fmt.Sprintf("host not quiet within %v", p.Timeout)
	if last == nil {
		return fmt.Errorf("%s: no CPU time was counted yet (/proc/stat moves in %v ticks)", head, time.Duration(hostload.TickNS))
	}
	u := last.Util
	load := fmt.Sprintf("average %.1f%% (limit %g%%), busiest cpu%d %.1f%% (limit %g%%)",
		u.AveragePct, p.MaxAveragePct, u.BusiestCPU, u.BusiestPct, p.MaxCorePct)
	if len(u.Skipped) > 0 {
		load += "; " + skippedText(u.Skipped)
	}
	if last.Quiet {
		return fmt.Errorf("%s: quiet for only the last %v of the %v needed; %s", head, last.Stable.Round(time.Millisecond), p.Stable, load)
	}
	return fmt.Errorf("%s: %s", head, load)
}

func skippedText(skipped []hostload.Skip) string {
	parts := make([]string, len(skipped))
	for i, s := range skipped {
		parts[i] = fmt.Sprintf("cpu%d %s", s.CPU, s.Reason)
	}
	return strings.Join(parts, ", ")
}

// gateDisplay shows the wait on stderr: a line redrawn in place on a
// terminal; a line at the start, every plainEvery and on passing otherwise.
type gateDisplay struct {
	w      io.Writer
	mode   progress.Mode
	policy gate.Policy
	last   *gate.Status
	drawn  bool
	said   time.Duration
}

const plainEvery = 5 * time.Second

func (d *gateDisplay) start() {
	p := d.policy
	switch d.mode {
	case progress.Plain:
		fmt.Fprintf(d.w, "fb-gate: waiting for a quiet host: average at most %g%%, every cpu at most %g%%, for %v (timeout %v)\n",
			p.MaxAveragePct, p.MaxCorePct, p.Stable, p.Timeout)
	case progress.TTY:
		fmt.Fprint(d.w, "\r\x1b[2Kfb-gate  waiting for a quiet host")
		d.drawn = true
	}
}

func (d *gateDisplay) update(s gate.Status) {
	d.last = &s
	switch d.mode {
	case progress.Plain:
		if s.Elapsed-d.said >= plainEvery {
			d.said = s.Elapsed.Truncate(plainEvery)
			fmt.Fprintf(d.w, "fb-gate: still waiting after %v: %s\n", d.said, d.load(s))
		}
	case progress.TTY:
		fmt.Fprintf(d.w, "\r\x1b[2Kfb-gate  waiting  %s  %s", d.load(s), progress.Clock(s.Elapsed))
		d.drawn = true
	}
}

// load is "average  12.3% (≤20%)  busiest cpu1    45.0% (≤50%)  quiet  0.4s/1s",
// in fixed-width fields so an in-place line does not jitter.
func (d *gateDisplay) load(s gate.Status) string {
	u, p := s.Util, d.policy
	return fmt.Sprintf("average %5.1f%% (≤%g%%)  busiest %s %5.1f%% (≤%g%%)  quiet %4.1fs/%gs",
		u.AveragePct, p.MaxAveragePct, progress.Field(fmt.Sprintf("cpu%d", u.BusiestCPU), 6),
		u.BusiestPct, p.MaxCorePct, s.Stable.Seconds(), p.Stable.Seconds())
}

func (d *gateDisplay) close(g ndjson.Gate) {
	passed := g.Outcome == ndjson.GatePassed
	waited := time.Duration(g.WaitedNS).Round(time.Millisecond)
	switch {
	case d.mode == progress.Plain && passed:
		fmt.Fprintf(d.w, "fb-gate: quiet after %v: average %.1f%%, busiest cpu%d %.1f%%\n", waited, g.LastAveragePct, g.BusiestCPU, g.LastCorePct)
	case d.mode == progress.TTY && passed:
		fmt.Fprintf(d.w, "\r\x1b[2Kfb-gate  quiet after %v  average %.1f%%  busiest cpu%d %.1f%%\n", waited, g.LastAveragePct, g.BusiestCPU, g.LastCorePct)
	case d.mode == progress.TTY && d.drawn:
		fmt.Fprintln(d.w)
	}
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
