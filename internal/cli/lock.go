package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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

// lockRequest is one parsed fb-lock invocation: the claim, PROGRAM, and
// where the lock record goes.
type lockRequest struct {
	claim    claim.Request
	argv     []string
	program  string
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
	req := r.claim
	req.Content = claim.Content{PID: os.Getpid(), Tool: filepath.Base(r.argv[0]), Start: time.Now(), Command: runner.QuoteCommand(r.argv)}
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
	r.closer()
	err = res.Claim.Exec(r.program, r.argv, os.Environ())
	if errors.As(err, new(*claim.ExecError)) {
		return withCode(ExitCommandFailed, err, "")
	}
	return err
}

// parseLock validates everything before the claim is taken, so a usage
// error never holds or records a claim.
func parseLock(c *ucli.Context, env Env) (*lockRequest, error) {
	r := &lockRequest{argv: c.Args().Slice(), required: c.Bool("require-machine-scope"),
		claim: claim.Request{Timeout: c.Duration("timeout"), Poll: c.Duration("poll"), Names: flagName}}
	if len(r.argv) == 0 {
		return nil, withCode(ExitUsage, errors.New("no PROGRAM given: fb-lock takes the claim, then runs PROGRAM [ARGS...] holding it"), "see 'fb-lock --help'; fb-lock --status lists the holders")
	}
	err := r.claim.Check()
	if err == nil {
		r.claim.Dir, err = claim.ResolveDir(c.String("path"), c.IsSet("path"), env.Getenv)
	}
	if err == nil && c.IsSet("cpus") {
		r.claim.CPUs, err = claim.ParseCPUs(c.String("cpus"), os.DirFS("/"))
	}
	if err != nil {
		return nil, fieldUsage(err)
	}
	if r.program, err = exec.LookPath(r.argv[0]); err != nil {
		return nil, withCode(ExitCommandFailed, fmt.Errorf("program %q not found: %w", r.argv[0], errors.Unwrap(err)), "")
	}
	r.record, r.closer, err = recordSink(c.String("record"), env)
	return r, err
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

// lockStatus is fb-lock --status.
func lockStatus(c *ucli.Context, env Env) error {
	if c.NArg() > 0 {
		return usageErrorf("--status takes no PROGRAM (got %q)", c.Args().First())
	}
	dir, err := claim.ResolveDir(c.String("path"), c.IsSet("path"), env.Getenv)
	if err != nil {
		return fieldUsage(err)
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
		return st.WriteJSON(env.Stdout)
	}
	st.WriteText(env.Stdout)
	return nil
}
