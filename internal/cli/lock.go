package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

const lockDescription = `Takes the host CPU claim of man fb-claim(5), writes a lock record (man fb-stream(5)), then
execs PROGRAM holding the claim: the lock descriptors are inherited and listed in $HOST_CPU_CLAIM_FDS.
Without --cpus the claim is machine-wide. When the claim cannot be had (busy at --timeout, or an
unusable path) PROGRAM still runs, unserialized, and the record says so, unless --require-machine-scope.
Flags end at PROGRAM: everything after it is PROGRAM's.
Exit status: PROGRAM's, or 2 usage, 5 PROGRAM not found or not executable, 11 --require-machine-scope
refused (busy, unusable path or namespace-scoped claim), 1 --status could not read the directory,
14 the lock record could not be written (PROGRAM not run).`

// lockApp is fb-lock: the host CPU claim, chain-loading PROGRAM.
func lockApp(env Env) *ucli.App {
	app := newApp(env, "fb-lock", "take the host CPU claim, then run a program", "PROGRAM [ARGS...]", lockDescription)
	app.UsageText = "fb-lock [options] PROGRAM [ARGS...]\nfb-lock --status [--json] [--path DIR]"
	app.Flags = []ucli.Flag{
		&ucli.StringFlag{Name: "path", Category: host, Value: claim.DefaultDir, Usage: "claim directory; $" + claim.DirEnv + " when the flag is not given; never probed for alternatives"},
		&ucli.StringFlag{Name: "cpus", Category: host, Usage: "claim only these CPUs (2,3 or 0-3): a shared claim on the machine file plus one exclusive claim per CPU; default: the whole machine"},
		&ucli.DurationFlag{Name: "timeout", Category: host, Value: claim.DefaultTimeout, Usage: "longest wait for conflicting holders to finish (0 = one attempt)"},
		&ucli.DurationFlag{Name: "poll", Category: host, Value: claim.DefaultPoll, Usage: "delay between claim attempts while waiting"},
		&ucli.BoolFlag{Name: "require-machine-scope", Category: host, Usage: "refuse with exit status 11, without running PROGRAM, unless the claim is held machine-wide (not busy, not an unusable path, not in a private /tmp)"},
		&ucli.StringFlag{Name: "record", Category: output, Value: "stdout", Usage: "where the lock record goes: stdout, stderr, none, or a FILE it is appended to"},
		&ucli.BoolFlag{Name: "quiet", Category: output, Aliases: []string{"q"}, Usage: "no progress lines on stderr while waiting"},
		&ucli.BoolFlag{Name: "status", Category: modes, Usage: "list the claim files, their holders (from /proc/locks) and content, without locking anything, and exit"},
		&ucli.BoolFlag{Name: "json", Category: output, Usage: "with --status: one JSON document instead of text"},
	}
	app.Action = func(c *ucli.Context) error {
		if c.Bool("status") {
			return lockStatus(c, env)
		}
		return lock(c, env)
	}
	return app
}

// execProgram replaces the process; a variable so it can be faked.
var execProgram = syscall.Exec

// lockRequest is one parsed fb-lock invocation.
type lockRequest struct {
	dir      string
	cpus     []int
	argv     []string
	program  string
	timeout  time.Duration
	poll     time.Duration
	required bool
	record   io.Writer
	closer   func() error
}

func lock(c *ucli.Context, env Env) error {
	if c.Bool("json") {
		return usageErrorf("--json goes with --status")
	}
	r, err := parseLock(c, env)
	if err != nil {
		return err
	}
	defer r.closer()
	req := claim.Request{
		Dir: r.dir, CPUs: r.cpus, Timeout: r.timeout, Poll: r.poll,
		Content: claim.Content{PID: os.Getpid(), Tool: filepath.Base(r.argv[0]), Start: time.Now(), Command: runner.QuoteCommand(r.argv)},
		Names:   flagName,
	}
	if !c.Bool("quiet") {
		req.Progress = func(waited time.Duration, holders []string) {
			fmt.Fprintf(env.Stderr, "fb-lock: %s\n", req.Waiting(waited, holders))
		}
	}
	res := claim.Host{}.Acquire(req)
	if err := ndjson.NewWriter(r.record).Write(res.Record(req, r.required)); err != nil {
		return outputFailed(err)
	}
	if res.Outcome != claim.Held {
		if r.required {
			if res.Claim != nil {
				res.Claim.Release()
			}
			return withCode(ExitLockRefused, fmt.Errorf("--require-machine-scope: no machine-wide claim (%s): %s", res.Outcome, res.Reason), refusalHint(res.Outcome))
		}
		fmt.Fprintf(env.Stderr, "fb-lock: warning: %s\n", res.Degraded())
	}
	return runProgram(r, res.Claim)
}

// parseLock validates everything before the claim is taken, so a usage
// error never holds or records a claim.
func parseLock(c *ucli.Context, env Env) (*lockRequest, error) {
	r := &lockRequest{argv: c.Args().Slice(), timeout: c.Duration("timeout"), poll: c.Duration("poll"), required: c.Bool("require-machine-scope")}
	if len(r.argv) == 0 {
		return nil, withCode(ExitUsage, errors.New("no PROGRAM given: fb-lock takes the claim, then runs PROGRAM [ARGS...] holding it"), "see 'fb-lock --help'; fb-lock --status lists the holders")
	}
	if r.timeout < 0 {
		return nil, usageErrorf("--timeout %s is negative", r.timeout)
	}
	if r.poll <= 0 {
		return nil, usageErrorf("--poll %s: use a positive interval, e.g. 250ms", r.poll)
	}
	var err error
	if r.dir, err = claimDir(c, env); err != nil {
		return nil, err
	}
	if c.IsSet("cpus") {
		if r.cpus, err = claimCPUs(c.String("cpus")); err != nil {
			return nil, err
		}
	}
	if r.program, err = exec.LookPath(r.argv[0]); err != nil {
		return nil, withCode(ExitCommandFailed, fmt.Errorf("program %q not found: %w", r.argv[0], errors.Unwrap(err)), "")
	}
	r.record, r.closer, err = recordSink(c.String("record"), env)
	return r, err
}

// claimDir is --path, else $HOST_CPU_CLAIM_DIR, else the default, made absolute.
func claimDir(c *ucli.Context, env Env) (string, error) {
	flag := ""
	if c.IsSet("path") {
		flag = c.String("path")
		if flag == "" {
			return "", usageErrorf("--path is empty")
		}
	}
	dir, err := filepath.Abs(claim.Dir(flag, env.Getenv))
	if err != nil {
		return "", usageErrorf("--path %q: %v", flag, err)
	}
	return dir, nil
}

func claimCPUs(list string) ([]int, error) {
	cpus, err := claim.ParseCPUList(list)
	if err != nil || len(cpus) == 0 {
		return nil, usageErrorf("--cpus %q: give CPU numbers like 2,3 or 0-3 (%v)", list, err)
	}
	online, err := claim.OnlineCPUs(os.DirFS("/"))
	if err != nil {
		return cpus, nil // nothing to check against
	}
	if err := claim.CheckCPUs(cpus, online); err != nil {
		return nil, usageErrorf("--cpus %q: %v", list, err)
	}
	return cpus, nil
}

func refusalHint(o claim.Outcome) string {
	switch o {
	case claim.Busy:
		return "wait for the holder to finish, raise --timeout, or drop --require-machine-scope"
	case claim.NamespaceScoped:
		return "run where /tmp is the machine's (e.g. without systemd PrivateTmp=), or point --path at a directory every job on the machine shares"
	}
	return "fix the claim path as the message says, or drop --require-machine-scope"
}

// runProgram execs PROGRAM, keeping the claim's descriptors open across
// the exec and naming them in $HOST_CPU_CLAIM_FDS.
func runProgram(r *lockRequest, held *claim.Claim) error {
	var fds []int
	if held != nil {
		if err := held.KeepAcrossExec(); err != nil {
			return err
		}
		fds = held.FDs()
	}
	r.closer()
	err := execProgram(r.program, r.argv, claim.ExecEnv(os.Environ(), fds))
	return withCode(ExitCommandFailed, fmt.Errorf("exec %q: %w", r.program, err), "")
}

// lockStatus is fb-lock --status.
func lockStatus(c *ucli.Context, env Env) error {
	if c.NArg() > 0 {
		return usageErrorf("--status takes no PROGRAM (got %q)", c.Args().First())
	}
	dir, err := claimDir(c, env)
	if err != nil {
		return err
	}
	st, err := claim.Host{}.Status(dir)
	var pe *claim.PathError
	if errors.As(err, &pe) {
		return pe.Named(flagName)
	}
	if err != nil {
		return err
	}
	if c.Bool("json") {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	st.WriteText(env.Stdout)
	return nil
}
