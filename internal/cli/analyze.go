package cli

import (
	"cmp"
	"fmt"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/version"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

func analyzeApp(env Env) *ucli.App {
	d := analyze.DefaultOptions
	app := newApp(env, "fb-analyze", "turn a measurement stream into summaries, paired comparisons and verdicts",
		"[FILE...]",
		"Reads streams from the files (or stdin, or - for stdin) and writes them to stdout with each run's\n"+
			"analysis after its end record; earlier analysis records are replaced. The same input and flags\n"+
			"always give byte-identical output.\n\n"+
			"Comparisons decide on a robust estimate of the paired log-ratios ln(reference/contender): the\n"+
			"biweight location of the reference-first and of the contender-first pairs, averaged, so that\n"+
			"pairs hit by interference and the penalty of running first leave the interval; the geometric\n"+
			"mean is reported beside it with its own interval (--estimator mean decides on the crossover\n"+
			"mean, --estimator legacy reproduces analyses of schema 1.2 and earlier byte for byte).\n\n"+
			"Intervals (deterministic): "+stats.LocationMethod+".\nBlock length: "+stats.BlockRule+".\n\n"+
			"A last line without its newline that is a record cut short (a copy interrupted, a full disk) ends\n"+
			"the input: the run it ends in is analysed with what came before it and its analysis says so;\n"+
			"a bad line anywhere else is an error.\n\n"+
			"Recordings (fb-record, the recorder package) get a span_summary per benchmark after their\n"+
			"recording_end: percentiles of individual spans with bootstrap intervals. Given two or more\n"+
			"recordings (fb-analyze before.ndjson after.ndjson), each benchmark of the first is compared by\n"+
			"name with each later one, resampling each side independently (comparison_design independent);\n"+
			"the span_comparison records follow the whole input.\n\n"+
			"Exit status: 0 ok, 1 an internal error, 2 usage, 3 a bad input line (reported as file:line),\n"+
			"4 unknown schema version, 13 --baseline of a differing fingerprint, 14 the output could not be written,\n"+
			"130/143 SIGINT/SIGTERM: the input was read to its end and analysed (a second signal stops at once).")
	app.Flags = []ucli.Flag{
		&ucli.Uint64Flag{Name: "seed", Category: statistics, Value: d.Seed, Usage: "bootstrap seed"},
		&ucli.IntFlag{Name: "resamples", Category: statistics, Value: d.Resamples, Usage: "bootstrap resamples per interval (100 to 10000)"},
		&ucli.IntFlag{Name: "process-resamples", Category: statistics, Value: stats.DefaultRunResamples, Usage: "resamples of each process-level BCa interval over whole process blocks (1000 to 1000000; 10000 puts a 2.5% endpoint within about 0.03 bootstrap standard deviations at a few milliseconds per comparison)"},
		&ucli.Float64Flag{Name: "confidence", Category: statistics, Value: d.Confidence, Usage: "interval coverage in percent (50 to 99.9)"},
		&ucli.Float64Flag{Name: "threshold", Category: statistics, Value: d.ThresholdPct, Usage: "practical threshold in percent: smaller time changes are 'practically equivalent'"},
		&ucli.StringFlag{Name: "plan", Category: modes, Usage: "instead of analysing, read a pilot stream and print how many pairs (units) and about how long a run needs for its decision intervals to have half-width=P% (e.g. --plan half-width=1%), with the command to run and the assumptions"},
		&ucli.StringFlag{Name: "baseline", Category: modes, Usage: "also compare every case, by name, with the same case in this archived stream (a run of an earlier revision, or an fb-import), as independent samples (design independent); the runs' fingerprints must match"},
		&ucli.StringSliceFlag{Name: "allow-mismatch", Category: modes, Usage: "with --baseline: fingerprint fields allowed to differ, comma-separated or repeated (host.kernel, tool_version, tag.revision, tag.* ...); the analysis lists them"},
		&ucli.StringFlag{Name: "multiplicity", Category: statistics, Value: analyze.MultiplicityBonferroni, Usage: "how the comparisons of a run share the error rate: bonferroni (each interval at 1 - (1 - P)/m for a family confidence P over m comparisons) or none (each at --confidence; the analysis is labelled exploratory)"},
		&ucli.Float64Flag{Name: "family-confidence", Category: statistics, Usage: "the family confidence P in percent (50 to 99.9; default: --confidence)"},
		&ucli.StringFlag{Name: "family", Category: statistics, Value: analyze.FamilyTime, Usage: "which comparisons form the family: time (each contender's time comparison) or all (time and every axis with a better/worse verdict)"},
		&ucli.StringFlag{Name: "outcome", Category: output, Value: analyze.OutcomeAll, Usage: "recordings: summarize and compare the spans with this outcome only (success, failure, timeout, cancelled or all); wall time and every axis keep the same spans"},
		&ucli.StringFlag{Name: "estimator", Category: statistics, Value: string(stats.EstimatorRobust), Usage: "decision estimate of comparisons: robust (biweight crossover location), mean (crossover mean: every pair at full weight) or legacy (the geometric mean with the schema 1.2 interval, byte-identical to analyses of that version)"},
	}
	app.Action = interruptible(env, "fb-analyze", "analysed", func(c *ucli.Context) error {
		est, err := stats.ParseEstimator(c.String("estimator"))
		if err != nil {
			return withCode(ExitUsage, fmt.Errorf("--%w", err), "")
		}
		opt := analyze.Options{
			Seed: c.Uint64("seed"), Resamples: c.Int("resamples"), ProcessResamples: c.Int("process-resamples"), Confidence: c.Float64("confidence"),
			ThresholdPct: c.Float64("threshold"), Estimator: est, Analyzer: "fb-analyze " + version.Version,
			Family: analyze.FamilyOptions{Multiplicity: c.String("multiplicity"), Scope: c.String("family"),
				ConfidencePct: c.Float64("family-confidence")},
			Outcome: c.String("outcome"), Names: flagName,
		}
		if c.IsSet("family-confidence") && opt.Family.ConfidencePct == 0 {
			return usageErrorf("--family-confidence 0 out of range: use 50 to 99.9 (percent)")
		}
		if err := opt.Validate(); err != nil {
			return fieldUsage(err)
		}
		if c.IsSet("plan") {
			width, err := analyze.ParsePlanWidth(c.String("plan"))
			if err != nil {
				return fieldUsage(err)
			}
			return plan(c, env, opt, width)
		}
		if opt.Baseline, err = baselineOf(c, env, opt); err != nil {
			return err
		}
		w := ndjson.NewBufferedWriter(env.Stdout, 256<<10, 200*time.Millisecond)
		var refused error // the first run the baseline could not be compared with
		opt.Suite, opt.AA = analyze.NewSuiteBuilder(), analyze.NewAABuilder()
		opt.Recordings = analyze.NewSpanComparer() // compared across inputs, written after them
		err = eachInput(c, env, func(r *ndjson.Reader) error {
			err := analyze.Stream(r, w, opt)
			warnTorn(env, "fb-analyze", r)
			if berr := baselineError(err); berr != nil {
				refused = cmp.Or(refused, berr)
				return nil
			}
			return streamError(err, "fix or remove that line; the records before it, and the analysis of every run that ended before it, were written")
		})
		if err != nil {
			return err
		}
		if err := analyze.WriteAfterInputs(w, opt); err != nil {
			return withCode(ExitFailure, err, "")
		}
		return refused
	})
	return app
}
