package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/lifecycle"
	"github.com/flybench/flybench/internal/noise"
	"github.com/flybench/flybench/internal/version"
	"github.com/flybench/flybench/pkg/ndjson"
)

const noiseDescription = `Runs the whole benchmark COMMAND (a pipeline's first stage: its stdout is a flybench stream, raw
or analysed) again and again as separate processes, and writes one noise record (man fb-stream(5)):
for every metric, 1.96 x 1.4826 x the median absolute deviation of its deltas against the first
invocation. Levels (a case's mean time per operation, an axis's mean) are relative deltas in
percent; changes (a comparison's change_pct, an axis's relative change) are deltas in percentage
points. It runs at least --min-runs invocations and stops when no estimate moved by more than
--tolerance percent of its previous value, or at --max-runs (the record then says converged false).
A raw stream is analysed as fb-analyze would with its defaults; an analysed one is taken as it is.
Flags end at COMMAND: everything after it is COMMAND's.
Exit status: 0 ok (converged or not), 1 an internal error, 2 usage, 3 an invocation's stream is
bad or has no summaries and comparisons, 4 unknown schema version, 5 COMMAND failed or cannot be
run, 13 the invocations ran on different machine classes, 14 the profile could not be written,
130 SIGINT, 143 SIGTERM (nothing is written).`

// noiseNow is the clock of the profile's created field.
var noiseNow = time.Now

func noiseApp(env Env) *ucli.App {
	d := noise.DefaultConfig
	app := newApp(env, "fb-noise", "calibrate the noise between whole invocations of a benchmark into a profile to commit",
		"COMMAND [ARGS...]", noiseDescription)
	app.Flags = []ucli.Flag{
		&ucli.IntFlag{Name: "min-runs", Category: budget, Value: d.MinRuns, Usage: "invocations at least (3 or more)"},
		&ucli.IntFlag{Name: "max-runs", Category: budget, Value: d.MaxRuns, Usage: "invocations at most; the profile then says converged false"},
		&ucli.Float64Flag{Name: "tolerance", Category: budget, Value: d.TolerancePct, Usage: "converged when no metric's estimate moved by more than this percentage of its previous value"},
		&ucli.StringFlag{Name: "keep", Category: output, Usage: "save every invocation's stream (its stdout) as `DIR`/run-NN.ndjson; DIR is created"},
		&ucli.BoolFlag{Name: "quiet", Category: output, Aliases: []string{"q"}, Usage: "no progress lines on stderr, only warnings and errors"},
	}
	app.Action = func(c *ucli.Context) error {
		cfg := d
		cfg.MinRuns, cfg.MaxRuns, cfg.TolerancePct = c.Int("min-runs"), c.Int("max-runs"), c.Float64("tolerance")
		cfg.Analyze.Analyzer, cfg.Analyze.Names = "fb-noise "+version.Version, flagName
		if err := cfg.Validate(); err != nil {
			return fieldUsage(err)
		}
		cmd, err := noiseCommand(c)
		if err != nil {
			return err
		}
		return calibrateNoise(env, cfg, cmd, c.Bool("quiet"))
	}
	return app
}

// noiseCommand checks COMMAND and --keep before anything runs.
func noiseCommand(c *ucli.Context) (*noise.Command, error) {
	argv := c.Args().Slice()
	if len(argv) == 0 {
		return nil, withCode(ExitUsage, errors.New("no COMMAND given: fb-noise runs a benchmark command that writes a flybench stream"),
			"fb-noise [options] -- fb-pair --samples 30 -- 'cmd A' 'cmd B' > noise.ndjson")
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return nil, withCode(ExitCommandFailed, fmt.Errorf("cannot run COMMAND: %w", err), "give a program in $PATH or its path")
	}
	keep := c.String("keep")
	if keep != "" {
		if err := os.MkdirAll(keep, 0o755); err != nil {
			return nil, withCode(ExitUsage, fmt.Errorf("--keep: %w", err), "")
		}
	}
	return &noise.Command{Argv: argv, Keep: keep, Names: flagName}, nil
}

// calibrateNoise runs the calibration and writes the profile; a
// SIGINT or SIGTERM is forwarded to the running invocation and ends it
// with nothing written.
func calibrateNoise(env Env, cfg noise.Config, cmd *noise.Command, quiet bool) error {
	ctx, stop := lifecycle.Cancel(context.Background())
	defer stop()
	progress := func(p noise.Progress) {
		if !quiet {
			printNoiseProgress(env, p)
		}
	}
	res, err := noise.Calibrate(ctx, cfg, cmd.Run, progress)
	if err != nil {
		return noiseError(env, err, cmd.Keep)
	}
	printNoiseOutcome(env, cfg, res, quiet)
	rec := noise.Record(cmd.Argv, cfg, res, noiseNow(), version.Version)
	return ndjson.NewWriter(env.Stdout).Write(rec)
}
