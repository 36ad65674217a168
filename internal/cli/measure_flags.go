package cli

import (
	"math"
	"strconv"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/collect"
)

// measureFlags are the flags fb-sample and fb-pair share. pair adds the
// comparison-only flags.
func measureFlags(pair bool) []ucli.Flag {
	d := collect.DefaultConfig
	flags := []ucli.Flag{
		&ucli.DurationFlag{Name: "warmup", Value: d.Warmup, Usage: "untimed warm-up time, divided across cases; every case runs at least once"},
		&ucli.DurationFlag{Name: "measurement-time", Aliases: []string{"t"}, Value: d.Measurement, Usage: "target timed time of the whole run, divided across cases and samples into the batch slice"},
		&ucli.DurationFlag{Name: "max-sampling-time", Value: 0, Usage: "hard budget for the sampling phase, checked between complete units; at least 10 units always run (0 = unlimited)"},
		&ucli.StringFlag{Name: "samples", Aliases: []string{"n"}, Value: "auto", Usage: "timed batches per case (10 to 1000), or auto: as many as fit the budget with every batch at least one operation (of the slowest case) and --min-sample-time long, 50 to 1000"},
		&ucli.DurationFlag{Name: "min-sample-time", Value: d.MinSample, Usage: "shortest batch calibration may choose"},
		&ucli.Int64Flag{Name: "max-iterations", Value: math.MaxInt64, DefaultText: "unlimited", Usage: "most logical operations (runs) in one batch"},
		&ucli.BoolFlag{Name: "subtract-timer-cost", Usage: "subtract the minimum clock-read cost once from every batch"},
		&ucli.Uint64Flag{Name: "seed", Value: d.Seed, Usage: "seed of the order shuffles"},
		&ucli.StringSliceFlag{Name: "name", Usage: "name of the next command, in order (repeat for each command; default: the command itself)"},
		tagFlag(),
		&ucli.StringSliceFlag{Name: "work-units", Usage: "logical work one operation completes (items processed, requests served): one value for every case, or one per case in order (commands, or worker sides); adds a throughput view (units per second, higher is better) to summaries and comparisons"},
		&ucli.BoolFlag{Name: "shell", Aliases: []string{"S"}, Usage: "run commands and hooks through /bin/sh -c instead of splitting them into words"},
		&ucli.BoolFlag{Name: "ignore-failure", Aliases: []string{"i"}, Usage: "time commands that exit non-zero instead of stopping the run"},
		&ucli.StringFlag{Name: "metrics", Aliases: []string{"m"}, Value: "time", Usage: "axes recorded on every sample, comma-separated sets (time, resources, perf, software, all) and single axes (cpu, rss_peak, minor_faults, cycles, task_clock, ...); wall time is always recorded; instructions_sim counts each case's instructions under valgrind in untimed runs (only when named)"},
		timerFlag(),
		&ucli.GenericFlag{Name: "require-perf", Value: &requirePerf{}, Usage: "fail after the first measurement unless every selected hardware axis (perf set) has samples; --require-perf=core requires only cycles, instructions and ipc (implies selecting them)"},
		&ucli.StringFlag{Name: "progress", Value: "auto", Usage: "progress on stderr: auto (in place on a terminal, plain lines otherwise), tty, plain or none"},
	}
	flags = append(flags, untilFlags()...)
	flags = append(flags, ioHookFlags()...)
	w := collect.DefaultWatch
	flags = append(flags,
		&ucli.StringFlag{Name: "watch", Usage: "interference watch: observe (record foreign CPU load), retake (discard a contaminated window and collect it again) or pause (wait for a settled host, re-warm, collect it again); off when unset; Linux only (/proc/stat)"},
		&ucli.Float64Flag{Name: "max-foreign", Value: w.MaxForeignPct, Usage: "largest accepted foreign CPU share of the machine (or of the watched CPUs), percent"},
		&ucli.DurationFlag{Name: "watch-window", Value: w.Window, Usage: "shortest window (whole samples, pairs or rounds) a foreign-load estimate is trusted over"},
		&ucli.IntFlag{Name: "max-retakes", Value: w.MaxRetakes, Usage: "most windows one run may collect again; then the run continues under observe and says so"},
		&ucli.DurationFlag{Name: "settle", Value: w.Settle, Usage: "--watch pause: quiet interval required before resuming"},
		&ucli.DurationFlag{Name: "max-pause", Value: w.MaxPause, Usage: "--watch pause: total pause budget, excluded from --max-sampling-time; then the run continues under observe"},
		&ucli.DurationFlag{Name: "rewarm", Value: w.Rewarm, Usage: "untimed work after a pause before timed collection resumes"},
		&ucli.IntFlag{Name: "cpu", Value: -1, DefaultText: "unplaced", Usage: "pin the benchmarked commands (and the collecting thread) to this logical CPU; the watch then looks at it and its SMT siblings; Linux only (elsewhere rejected: unsupported_platform)"},
		&ucli.BoolFlag{Name: "require-strict", Usage: "with --cpu: refuse to run (exit 9) when strict placement is not possible, instead of continuing unplaced"},
	)
	flags = append(flags, batchingFlags(pair)...)
	flags = append(flags, conditionFlags()...)
	flags = append(flags, modeFlags()...)
	flags = append(flags, layoutFlag())
	flags = append(flags, referenceFlag())
	flags = append(flags, invocationsFlags(pair)...)
	if pair {
		flags = append(flags, scanFlags()...)
		flags = append(flags, aaFlag())
		flags = append(flags,
			&ucli.BoolFlag{Name: "sequential", Usage: "collect one case's block at a time instead of pairs or balanced rounds (exposed to drift; analysed as independent samples)"},
		)
	}
	return flags
}

// configFromFlags reads the collection policy.
func configFromFlags(c *ucli.Context) collect.Config {
	cfg := collect.Config{
		Warmup:            c.Duration("warmup"),
		Measurement:       c.Duration("measurement-time"),
		MaxSampling:       c.Duration("max-sampling-time"),
		Samples:           samplesOf(c.String("samples")),
		MinSample:         c.Duration("min-sample-time"),
		MaxIterations:     c.Int64("max-iterations"),
		SubtractTimerCost: c.Bool("subtract-timer-cost"),
		Seed:              c.Uint64("seed"),
		Batching:          collect.SharedIterations,
		SizeSpread:        c.Float64("size-spread"),
	}
	if c.IsSet("sequential") {
		cfg.Sequential = c.Bool("sequential")
	}
	cfg.Until = untilFromFlags(c)
	cfg.Watch = collect.Watch{
		Response: c.String("watch"), MaxForeignPct: c.Float64("max-foreign"), Window: c.Duration("watch-window"),
		MaxRetakes: c.Int("max-retakes"), Settle: c.Duration("settle"), MaxPause: c.Duration("max-pause"), Rewarm: c.Duration("rewarm"),
	}
	return cfg
}

// samplesOf reads --samples: auto, or a count. A count that is not a
// number becomes -1, which Config.Validate refuses with the range.
func samplesOf(s string) int {
	if s == "auto" {
		return collect.AutoSamples
	}
	n, err := strconv.Atoi(s)
	if err != nil || n == collect.AutoSamples {
		return -1
	}
	return n
}
