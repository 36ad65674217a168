package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/internal/check"
	"github.com/flybench/flybench/internal/history"
	"github.com/flybench/flybench/pkg/ndjson"
)

const checkDescription = `Reads analyzed streams (fb-analyze output, with or without --baseline) from the files or
stdin and judges every comparison on two thresholds at once: a metric regresses only when
its change is large enough to matter AND outside what the measurement cannot tell from noise.

  time     fails when the contender is --max-slowdown or more slower and the change is outside
           the window sqrt(hw^2 + noise^2): hw the half-width of the comparison's interval,
           noise the profile's calibrated noise (0 without --noise: the window is the interval).
  memory   every axis in bytes (rss_peak, rss_change, a worker's alloc_bytes, live_heap; not the
           io family's read_bytes and write_bytes) fails when it grows by --max-memory-growth or
           more, by at least --memory-floor (--memory-floor-op for per-operation units), above
           the profile's noise for it, and its interval excludes no growth.
  counter  every exactly compared axis (counter records, custom axes declared exact) fails on
           any change for the worse, and when it was not deterministic. No window.

  history  with --history DSN, every case of each run against its own history in a results store
           (fb-history add; a SQLite file or a postgres:// URL): the change of its median from
           the median of its last --history-runs runs on the same machine class (and with
           every --history-where tag), with the
           runs' own spread (fb-noise's estimator: 1.96 x 1.4826 x MAD) as the noise, fails
           on the same two thresholds as time. Fewer than 5 such runs: skipped; a run with
           nothing else judged cannot be judged. A change point (E-divisive) at the newest
           runs is named in the row. The runs judged are not added: fb-history add does that.

An axis without a value is "skip" with its status, never a pass. With --noise, a profile
calibrated on another machine class (os, arch, CPU model, CPU count) makes the judgement
advisory: the table is printed and the outcome is "cannot judge".

Exit status: 0 no regression, 1 an internal error or a --history store that failed while
read, 2 usage, or a FILE or --history store that cannot be opened, 3 a bad input line or a
--noise file that is not a noise profile, 4 unknown schema version (or a store newer than this
build), 6 a run without its analysis (not analyzed, or cut short before it), 12 regressed, 13
cannot judge (no comparison at all, a noise profile from another machine class, or too little
history and nothing else judged), 14 the output or --record could not be written, 130/143
SIGINT/SIGTERM: the input was read to its end and judged (a second signal stops at once; a
regression or an input that cannot be judged keeps 12 or 13).`

func checkApp(env Env) *ucli.App {
	d := check.DefaultOptions
	app := newApp(env, "fb-check", "the CI gate: fail on a regression that is both large and outside the noise",
		"[FILE...]", checkDescription)
	app.Flags = []ucli.Flag{
		&ucli.StringFlag{Name: "noise", Category: statistics, Usage: "noise profile (fb-noise output) whose calibrated noise widens each window"},
		&ucli.Float64Flag{Name: "max-slowdown", Category: statistics, Value: d.MaxSlowdownPct, Usage: "smallest slowdown in percent that fails"},
		&ucli.Float64Flag{Name: "max-memory-growth", Category: statistics, Value: d.MaxMemoryGrowthPct, Usage: "smallest memory growth in percent that fails"},
		&ucli.StringFlag{Name: "memory-floor", Category: statistics, Value: "64KiB", Usage: "smallest absolute growth of a memory amount (an axis in bytes) that fails, e.g. 64KiB, 1MiB"},
		&ucli.StringFlag{Name: "memory-floor-op", Category: statistics, Value: "0", Usage: "the same for a per-operation amount (bytes/op), e.g. 64B"},
		&ucli.StringFlag{Name: "format", Category: output, Aliases: []string{"f"}, Value: "console", Usage: "console, markdown (a GitHub table for a pull request or $GITHUB_STEP_SUMMARY) or ndjson (the check records)"},
		&ucli.StringFlag{Name: "color", Category: output, Value: "auto", Usage: "console colour: auto, always or never"},
		&ucli.StringFlag{Name: "record", Category: output, Usage: "also write the check records (one per analysis) to this FILE, created or truncated"},
		&ucli.StringFlag{Name: "history", Category: store, Usage: "also judge every case against its history in this results store (fb-history add): a SQLite file (or sqlite:FILE) or a postgres:// URL"},
		&ucli.StringSliceFlag{Name: "history-where", Category: store, Usage: "--history: tag.KEY=VALUE a run of the history must have (repeatable; all must hold), e.g. tag.branch=main"},
		&ucli.IntFlag{Name: "history-runs", Category: store, Value: check.DefaultHistoryRuns, Usage: fmt.Sprintf("--history: how many of the newest comparable runs (same machine class) make a case's history; at least %d", check.MinHistoryRuns)},
	}
	app.Action = interruptible(env, "fb-check", "checked", func(c *ucli.Context) error { return runCheck(c, env) })
	return app
}

func runCheck(c *ucli.Context, env Env) error {
	ro, err := checkRender(c, env)
	if err != nil {
		return err
	}
	var all []*check.Run
	err = eachInput(c, env, func(r *ndjson.Reader) error {
		got, err := check.Load(r)
		all = append(all, got...)
		warnTorn(env, "fb-check", r)
		return streamError(err, "fix or remove that line; nothing was checked")
	})
	if err != nil {
		return err
	}
	profile, err := loadNoise(c.String("noise"), env)
	if err != nil {
		return err
	}
	if err := check.CheckAnalyzed(all); err != nil {
		return withCode(ExitNotAnalyzed, err, "")
	}
	if profile != nil {
		ro.Noise = profile.File
	}
	res, err := judgeCheck(c, all, profile, &ro)
	if err != nil {
		return err
	}
	if err := check.Write(env.Stdout, res, all, ro); err != nil {
		return err
	}
	if err := writeCheckRecords(c.String("record"), res); err != nil {
		return outputFailed(err)
	}
	return checkExit(res)
}

// judgeCheck judges the runs, against the --history store when one is
// named.
func judgeCheck(c *ucli.Context, all []*check.Run, profile *check.Profile, ro *check.Render) (check.Result, error) {
	if c.String("history") == "" {
		return check.Judge(all, profile, ro.Options), nil
	}
	where, err := history.ParseWhere(check.FieldHistoryWhere, c.StringSlice("history-where"))
	if err != nil {
		return check.Result{}, fieldUsage(err)
	}
	s, err := openCheckHistory(c.String("history"))
	if err != nil {
		return check.Result{}, err
	}
	defer s.Close()
	ro.History, ro.HistoryRuns = s.Name, c.Int("history-runs")
	if w := c.StringSlice("history-where"); len(w) > 0 {
		ro.History += " (" + strings.Join(w, ", ") + ")"
	}
	res, err := check.JudgeHistory(all, profile, ro.Options, check.History{Past: s, Store: s.Name, Runs: ro.HistoryRuns,
		Where: where, Change: changepoint.DefaultOptions})
	if err != nil {
		return res, withCode(ExitFailure, err, "")
	}
	return res, nil
}

// openCheckHistory opens the --history store for reading: one that
// cannot be opened is an input that cannot be opened (exit 2), named
// with what to do; a store of a newer schema is exit 4.
func openCheckHistory(dsn string) (*history.Store, error) {
	s, err := history.OpenExisting(dsn)
	var de *history.DSNError
	var ve *history.VersionError
	switch {
	case errors.As(err, &de):
		return nil, withCode(ExitUsage, fmt.Errorf("--history: %w: give a store fb-history add wrote (a SQLite file or a postgres:// URL)", err), "")
	case errors.As(err, &ve):
		return nil, withCode(ExitSchema, fmt.Errorf("--history %q: %w", dsn, err), "this store was written by a newer fb-history: use that one's fb-check")
	case err != nil:
		return nil, withCode(ExitUsage, fmt.Errorf("--history: %w: check the DSN and that its server is up", err), "")
	}
	return s, nil
}

// checkRender reads the flags that shape the judgement and the output.
func checkRender(c *ucli.Context, env Env) (check.Render, error) {
	opt, err := check.ParseOptions(c.Float64("max-slowdown"), c.Float64("max-memory-growth"),
		c.String("memory-floor"), c.String("memory-floor-op"))
	if err != nil {
		return check.Render{}, fieldUsage(err)
	}
	opt.Names = flagName
	ro := check.Render{Format: c.String("format"), Options: opt}
	if err := check.CheckFormat(ro.Format); err != nil {
		return ro, fieldUsage(err)
	}
	ro.Color, err = useColor(c.String("color"), env)
	if c.IsSet("record") && c.String("record") == "" {
		return ro, usageErrorf("--record is empty: give a file name")
	}
	if c.IsSet("history") && c.String("history") == "" {
		return ro, usageErrorf("--history is empty: give a SQLite file or a postgres:// URL")
	}
	if _, err := history.ParseWhere(check.FieldHistoryWhere, c.StringSlice("history-where")); err != nil {
		return ro, fieldUsage(err)
	}
	if err := check.CheckHistoryRuns(c.Int("history-runs")); err != nil {
		return ro, fieldUsage(err)
	}
	return ro, err
}

// loadNoise reads the --noise profile, if one is named.
func loadNoise(name string, env Env) (*check.Profile, error) {
	if name == "" {
		return nil, nil
	}
	var p *check.Profile
	err := withInput(env, name, func(r *ndjson.Reader) error {
		var err error
		p, err = check.LoadProfile(r, flagName)
		return streamError(err, "--noise takes a profile written by fb-noise; nothing was checked")
	})
	return p, err
}

// writeCheckRecords writes the check records to the --record file.
func writeCheckRecords(name string, res check.Result) error {
	if name == "" {
		return nil
	}
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	err = check.WriteRecords(f, res)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("--record %q: %w", name, err)
	}
	return nil
}

// checkExit turns the outcome into the exit status, with the headline on
// stderr for a regression or an input that cannot be judged.
func checkExit(res check.Result) error {
	switch res.Outcome {
	case ndjson.CheckRegressed:
		return withCode(ExitRegressed, errors.New(res.Headline()+": "+strings.Join(res.Failures(3), ", ")),
			"each row's why says which threshold and window it cleared")
	case ndjson.CheckCannotJudge:
		return withCode(ExitCannotJudge, errors.New(res.Headline()), "")
	}
	return nil
}
