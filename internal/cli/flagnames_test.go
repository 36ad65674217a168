package cli

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/check"
	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/conditions"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/gate"
	"github.com/flybench/flybench/internal/history"
	"github.com/flybench/flybench/internal/importer"
	"github.com/flybench/flybench/internal/noise"
	"github.com/flybench/flybench/internal/progress"
	"github.com/flybench/flybench/internal/record"
	"github.com/flybench/flybench/internal/report"
	"github.com/flybench/flybench/pkg/stats"
)

// configMessages are collect's field errors as fb-sample and fb-pair have
// always printed them.
var configMessages = []struct {
	edit func(*collect.Config)
	k    int
	want string
}{
	{func(c *collect.Config) { c.Samples = 5 }, 2, "--samples 5 out of range: use auto or 10 to 1000"},
	{func(c *collect.Config) { c.Warmup = -time.Second }, 2, "--warmup -1s is negative"},
	{func(c *collect.Config) { c.Measurement = 0 }, 2, "--measurement-time 0s must be positive"},
	{func(c *collect.Config) { c.MaxSampling = -time.Second }, 2, "--max-sampling-time -1s is negative (0 means unlimited)"},
	{func(c *collect.Config) { c.MinSample = 0 }, 2, "--min-sample-time 0s must be positive"},
	{func(c *collect.Config) { c.MaxIterations = 0 }, 2, "--max-iterations 0 must be at least 1"},
	{func(c *collect.Config) { c.Sequential = true }, 1, "--sequential needs 2 or more operations"},
	{func(c *collect.Config) { c.Batching = "x" }, 2, `--batching "x": use shared or equal-time`},
	{func(c *collect.Config) { c.SizeSpread = 0.5 }, 2, "--size-spread 0.5 out of range: use 1 (one fixed size) to 64"},
	{func(c *collect.Config) { c.Invocations = 1001 }, 2, "--invocations 1001 out of range: use 1 to 1000"},
	{func(c *collect.Config) { c.Invocations, c.Until = 2, untilRule("decision") }, 2,
		"--invocations with --until: a stopping rule cannot stop inside a process design; fix the number of blocks and samples instead"},
	{func(c *collect.Config) { c.Invocations, c.Sequential = 2, true }, 2,
		"--invocations with --sequential: blocks are collected paired or in rounds; drop --sequential"},
	{func(c *collect.Config) { c.Until = untilRule("soon") }, 2, `--until "soon": use decision or width=P%`},
	{func(c *collect.Config) { c.Until = untilRule("decision") }, 1,
		"--until decision needs 2 or more operations to compare; for one, use --until width=P%"},
	{func(c *collect.Config) { c.Until, c.Sequential = untilRule("width"), true }, 2,
		"--until cannot be combined with --sequential: sequential blocks need their length in advance"},
	{func(c *collect.Config) { c.Until = untilRule("width"); c.Until.MaxTime = 0 }, 2, "--max-time 0s must be positive with --until"},
	{func(c *collect.Config) { c.Until = untilRule("width"); c.Until.Confidence = 40 }, 2,
		"--confidence 40 out of range: use 50 to 99.9 (percent)"},
	{func(c *collect.Config) { c.Watch.Response = "x" }, 2, `--watch "x": use observe, retake or pause`},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.MaxForeignPct = "observe", 101 }, 2, "--max-foreign 101: use 0 to 100 (percent)"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.Window = "observe", 0 }, 2, "--watch-window 0s must be positive"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.MaxRetakes = "retake", -1 }, 2, "--max-retakes -1 is negative"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.MaxPause = "pause", time.Millisecond }, 2,
		"--settle 250ms and --max-pause 1ms: a pause budget smaller than one settle interval could never resume"},
	{func(c *collect.Config) { c.Watch.Response, c.Watch.Rewarm = "observe", -time.Second }, 2, "--rewarm -1s is negative"},
	{func(c *collect.Config) { c.Timeout = -time.Second }, 2, "--timeout -1s is negative: use a duration, or none"},
	{func(c *collect.Config) { c.Duet = true }, 3, "--duet runs two operations side by side; 3 given"},
	{func(c *collect.Config) { c.Duet, c.Sequential = true, true }, 2, "--duet with --sequential: a duet runs both sides of each pair at once"},
}

func untilRule(rule string) collect.Until {
	return collect.Until{Rule: rule, MaxTime: time.Second, Confidence: 95}
}

// requestMessages are the request's field errors as fb-sample and fb-pair
// have always printed them, for the command lines that make them.
var requestMessages = []struct {
	args []string
	want string
}{
	{[]string{"fb-pair"}, "no command given: fb-pair takes 2 to 16 (quote each command as one argument)"},
	{[]string{"fb-sample"}, "no command given: fb-sample takes exactly 1 (quote each command as one argument)"},
	{[]string{"fb-pair", "--case", "x", "--", "a", "b"}, "--case needs --worker"},
	{[]string{"fb-pair", "--gotest", "--shell", "--", "a.test", "b.test"}, "--gotest runs test binaries directly: drop --shell and --ignore-failure"},
	{[]string{"fb-pair", "--reference", "", "--", "a", "b"}, "--reference is empty: give int, mem or a command"},
	{[]string{"fb-pair", "--reference", "int", "--worker", "--", "a", "b"}, "--reference cannot be used with --worker: worker cases run inside the workers' own processes, and the reference workload is a program of its own"},
	{[]string{"fb-pair", "--reference", "int", "--gotest", "--", "a", "b"}, "--reference cannot be used with --gotest: each side is a Go benchmark timed by the test binary, and the reference workload is not one"},
	{[]string{"fb-pair", "--reference", "./r"}, "no command given: fb-pair takes 2 to 15 (quote each command as one argument)"},
	{[]string{"fb-pair", "-P", "t", "1"}, `--parameter-scan "t": want NAME=LO..HI (or hyperfine's NAME LO HI) with NAME letters, digits and '_'`},
	{[]string{"fb-pair", "-P", "t=1..3", "--", "a {u}"}, `the command "a {u}" does not use {t}: put {t} where its value goes`},
	{[]string{"fb-pair", "-P", "t=1..3", "--", "a {t} {u}"}, `the command "a {t} {u}" uses {u}, which no --parameter-scan or --parameter-list defines`},
	{[]string{"fb-pair", "-P", "t=1..30", "-L", "u=a,b", "--", "a {t} {u}"}, "the parameters give 60 (30 × 2) case(s): fb-pair compares 2 to 16; narrow a range or list"},
	{[]string{"fb-pair", "-P", "t=3..1", "--", "a {t}"}, `--parameter-scan "t=3..1": HI is below LO`},
	{[]string{"fb-pair", "-P", "t=1-3", "--", "a {t}"}, `--parameter-scan "t=1-3": want NAME=LO..HI, e.g. threads=1..4`},
	{[]string{"fb-pair", "-L", "t=1,,2", "--", "a {t}"}, `--parameter-list "t=1,,2": empty value`},
	{[]string{"fb-pair", "-L", "a b=1,2", "--", "a {t}"}, `--parameter-list "a b=1,2": want NAME=A,B,C (or hyperfine's NAME A,B,C) with NAME letters, digits and '_'`},
	{[]string{"fb-pair", "-L", "t=1,2", "-P", "t=1..2", "--", "a {t}"}, `parameter "t" given twice`},
	{[]string{"fb-pair", "--batch", "-L", "n=1,2", "--", "a {n}"}, "parameter n: {n} is the iteration count in --batch mode; call the parameter something else"},
	{[]string{"fb-pair", "--aa", "0", "--", "a"}, "--aa 0 out of range: use 1 to 1000 runs"},
	{[]string{"fb-pair", "--aa", "3", "--", "a", "b"}, "--aa with 2 commands: give the one command to measure against itself"},
	{[]string{"fb-pair", "--aa", "3", "-P", "t=1..2", "--", "a {t}"}, "--aa with a parameter scan: --aa measures one command against itself; drop the scan"},
	{[]string{"fb-pair", "--aa", "3", "--resume", "x.ndjson", "--", "a"}, "--aa with --resume: resume the interrupted run without --aa"},
	{[]string{"fb-pair", "--aa", "3", "--reference", "./r", "--", "a"}, "--aa with --reference: a reference workload is a third case; drop it"},
	{[]string{"fb-pair", "--aa", "3", "--worker", "--case", "a", "--case", "b", "--", "./w"}, "--aa with 2 --case values: name the one worker case to measure against itself"},
	{[]string{"fb-pair", "--timer", "user", "--", "a", "b"}, `--timer "user": use auto, wall or cpu`},
	{[]string{"fb-pair", "--timer", "cpu", "--gotest", "--", "a.test", "b.test"}, "--timer cpu with --gotest: the test binary's CPU time includes its start-up, the benchmark's setup and whatever runs with Go's timer stopped"},
	{[]string{"fb-pair", "--timer", "cpu", "--worker", "--case", "a", "--case", "b", "--", "./w"}, `--timer cpu: cases "a" and "b" share one worker process, whose CPU-time clock would charge work one case leaves running (garbage collection, background threads) to the other`},
	{[]string{"fb-pair", "--", "a"}, "1 commands given: fb-pair takes 2 to 16 (quote each command as one argument)"},
	{[]string{"fb-sample", "--", "a", "b"}, "2 commands given: fb-sample takes exactly 1 (quote each command as one argument)"},
	{[]string{"fb-pair", "--worker", "--case", "a", "--case", "b", "--case", "c", "--", "x", "y"}, "2 commands and 3 --case values: give one command with several cases, several commands with one case, or one case per command"},
	{[]string{"fb-pair", "--worker", "--", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q"}, "17 sides (commands × --case): fb-pair takes 2 to 16 (quote each command as one argument); one worker with several cases needs a --case for each"},
	{[]string{"fb-pair", "--invocations", "2", "--", "a", "b"}, "--invocations 2: exec mode already starts a fresh process per operation; use --worker, --gotest or --batch for process blocks"},
	{[]string{"fb-pair", "--invocations", "2000", "--batch", "--", "a", "b"}, "--invocations 2000 out of range: use 1 to 1000"},
	{[]string{"fb-pair", "--rotate", "5", "--page-cache", "keep", "--", "a", "b"}, "--rotate 5 with --page-cache keep: every batch starts its own process and the programs' files stay cached as found, so a block would start nothing afresh"},
	{[]string{"fb-pair", "--rotate", "5", "--worker", "--invocations", "2", "--", "a", "b"}, "--rotate 5 with --invocations 2: the blocks start afresh already; drop one"},
	{[]string{"fb-pair", "--rotate", "5", "--worker", "--sequential", "--", "a", "b"}, "--rotate 5 with --sequential: process blocks are collected paired or in rounds"},
	{[]string{"fb-pair", "--randomize-layout", "--worker", "--", "a", "b"}, "--randomize-layout with --worker: a worker's environment is fixed when it starts; drop the flag (it applies to exec and batch modes)"},
	{[]string{"fb-pair", "--randomize-layout", "--gotest", "--", "a", "b"}, "--randomize-layout with --gotest: a Go benchmark runs on goroutine stacks that the environment does not move; drop the flag (it applies to exec and batch modes)"},
	{[]string{"fb-pair", "--retry-failed", "--", "a", "b"}, "--retry-failed needs --resume FILE"},
	{[]string{"fb-pair", "--resume", "x.ndjson", "--", "a", "b"}, `--resume "x.ndjson" needs --invocations K, as the run was collected with`},
	{[]string{"fb-pair", "--batching", "some", "--", "a", "b"}, `--batching "some": use shared, equal-time or auto`},
	{[]string{"fb-pair", "--until", "soon", "--", "a", "b"}, `--until "soon": use decision or width=P% (a half-width in percent)`},
	{[]string{"fb-pair", "--until", "width=0%", "--", "a", "b"}, `--until "width=0%": the width is a half-width in percent above 0 and below 100, e.g. width=1%`},
	{[]string{"fb-pair", "--estimator", "legacy", "--", "a", "b"}, `--estimator "legacy": use robust or mean`},
	{[]string{"fb-pair", "--confidence", "20", "--", "a", "b"}, "--confidence 20 out of range: use 50 to 99.9 (percent)"},
	{[]string{"fb-pair", "--threshold", "200", "--", "a", "b"}, "--threshold 200 out of range: use 0 up to (not including) 100 (percent)"},
	{[]string{"fb-pair", "--name", "a", "--name", "b", "--name", "c", "--", "a", "b"}, "3 --name values for 2 commands"},
	{[]string{"fb-pair", "--name", "a", "--name", "a", "--", "a", "b"}, `--name "a": names must be non-empty and distinct`},
	{[]string{"fb-sample", "--reference", "./r", "--until", "decision", "--", "a"}, "--until decision needs 2 or more commands to compare, and the reference workload is never compared: use --until width=P%"},
	{[]string{"fb-sample", "--until", "decision", "--", "a"}, "--until decision needs 2 or more operations to compare; for one, use --until width=P%"},
	{[]string{"fb-pair", "--samples", "abc", "--", "a", "b"}, "--samples -1 out of range: use auto or 10 to 1000"},
	{[]string{"fb-pair", "--work-units", "1", "--work-units", "2", "--work-units", "3", "--", "a", "b"}, "3 --work-units values for 2 cases: give one for all, or one per case"},
	{[]string{"fb-pair", "--worker", "--timeout", "1m", "--", "a", "b"}, "--timeout limits the processes of exec, batch and gotest modes: a worker's requests are limited by --worker-timeout; drop --timeout"},
	{[]string{"fb-pair", "--worker", "--input", "in.txt", "--", "a", "b"}, "--input and --output apply to exec and batch modes: --worker uses the commands' stdin and stdout itself; drop them"},
	{[]string{"fb-pair", "--show-output", "--output", "null", "--", "a", "b"}, "--show-output sends stdout to this tool's stderr, and --output null elsewhere: drop one"},
	{[]string{"fb-pair", "--input", "missing.txt", "--", "a", "b"}, `--input "missing.txt": no such file or directory`},
	{[]string{"fb-pair", "-p", "x", "-p", "y", "-p", "z", "--", "a", "b"}, "3 --prepare values for 2 commands: give one for all, or exactly one per command, in order"},
	{[]string{"fb-pair", "-P", "t=1..3", "--setup", "a", "--setup", "b", "--", "c {t}"}, "2 --setup values for 3 scanned cases: give one for all, or exactly one per scanned case, in order"},
	{[]string{"fb-pair", "--duet-cpus", "0,1", "--", "a", "b"}, "--duet-cpus needs --duet"},
	{[]string{"fb-pair", "--duet", "--cpu", "0", "--", "a", "b"}, "--cpu with --duet: a duet places its two sides itself; choose its CPUs with --duet-cpus"},
	{[]string{"fb-pair", "--duet", "-m", "cpu,rss_peak", "--", "a", "b"}, "--metrics with --duet: the resource axes (cpu, rss_peak) are observed one batch at a time, and a duet runs two at once; measure them in adjacent pairs"},
}

// positional are the request's fields a command line gives as arguments,
// not flags.
var positional = []string{"Commands"}

// requestError parses a command line as its tool does and returns what
// the request's validation makes of it.
func requestError(t *testing.T, args []string) error {
	t.Helper()
	tool, least, most := args[0], 2, collect.MaxCases
	if tool == "fb-sample" {
		least, most = 1, 1
	}
	env := Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	app := tools[tool](env)
	var got error
	app.Action = func(c *ucli.Context) error {
		r, err := measureRequest(c, env, tool, least, most)
		if err == nil {
			err = r.Validate()
		}
		got = err
		return nil
	}
	if err := app.Run(args); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return got
}

// Every field error of a request names fields that have a flag, and
// reads as it always has; together with the collection policy's, they
// use every entry of the table but those only a running measurement
// names.
func TestRequestErrorsSpeakFlags(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile(filepath.Join(".", "in.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, tc := range requestMessages {
		var fe *field.Error
		if err := requestError(t, tc.args); !errors.As(err, &fe) {
			t.Errorf("%q: got %v, want a field error", tc.args, err)
			continue
		}
		for _, f := range fe.Fields() {
			used[f] = true
			if _, ok := flagNames[f]; !ok && !slices.Contains(positional, f) {
				t.Errorf("%q: field %s has no flag", tc.args, f)
			}
		}
		if got := fieldUsage(fe).Error(); got != tc.want {
			t.Errorf("%q:\ngot  %q\nwant %q", tc.args, got, tc.want)
		}
	}
	for _, tc := range configMessages {
		c := collect.DefaultConfig
		c.Watch = collect.DefaultWatch
		tc.edit(&c)
		var fe *field.Error
		if errors.As(c.Validate(tc.k), &fe) {
			for _, f := range fe.Fields() {
				used[f] = true
			}
		}
	}
	// Named only while a measurement runs: placement, a resumed archive's
	// differences, the hooks a failure names.
	running := []string{"Placement.CPU", "Placement.RequireStrict", "Seed", "RandomizeLayout", "RequirePerf", "Hooks.Conclude", "Hooks.Cleanup"}
	for path := range flagNames {
		if !used[path] && !slices.Contains(running, path) {
			t.Errorf("table entry %s is named by no field error", path)
		}
	}
}

// Every flag the table names is a flag of fb-pair.
func TestFlagNamesAreFlags(t *testing.T) {
	var flags []string
	for _, f := range App("fb-pair").Flags {
		for _, n := range f.Names() {
			flags = append(flags, "--"+n)
		}
	}
	for path, flag := range flagNames {
		if !slices.Contains(flags, flag) {
			t.Errorf("%s: %s is no flag of fb-pair", path, flag)
		}
	}
}

// Every field error of the collection policy names fields that have a
// flag, and reads as it always has.
func TestConfigErrorsSpeakFlags(t *testing.T) {
	for _, tc := range configMessages {
		c := collect.DefaultConfig
		c.Watch = collect.DefaultWatch
		tc.edit(&c)
		var fe *field.Error
		if err := c.Validate(tc.k); !errors.As(err, &fe) {
			t.Errorf("%q: got %v, want a field error", tc.want, err)
			continue
		}
		for _, f := range fe.Fields() {
			if _, ok := flagNames[f]; !ok {
				t.Errorf("%q: field %s has no flag", tc.want, f)
			}
		}
		if got := fieldUsage(fe).Error(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// Every flag of another engine's field is a flag of each tool the table
// names for it.
func TestEngineFlagsAreFlags(t *testing.T) {
	for path, ef := range engineFlags {
		for _, tool := range ef.tools {
			var flags []string
			for _, f := range App(tool).Flags {
				for _, n := range f.Names() {
					flags = append(flags, "--"+n)
				}
			}
			if !slices.Contains(flags, ef.flag) {
				t.Errorf("%s: %s is no flag of %s", path, ef.flag, tool)
			}
		}
	}
}

// The other engines' field errors read as they always have, and between
// them they use every entry of engineFlags.
func TestEngineErrorsSpeakFlags(t *testing.T) {
	gp := func(f func(*gate.Policy)) error { p := gate.DefaultPolicy; f(&p); return p.Validate() }
	ao := func(f func(*analyze.Options)) error { o := analyze.DefaultOptions; f(&o); return o.Validate() }
	nc := func(f func(*noise.Config)) error { c := noise.DefaultConfig; f(&c); return c.Validate() }
	rp := func(name string, capacity int) error { return record.Policy{Name: name, Capacity: capacity}.Check() }
	ro := func(f func(*record.Options)) error {
		o := record.Options{Policy: record.Policy{Name: "first", Capacity: 1}, Refresh: time.Second}
		f(&o)
		return o.Check()
	}
	_, progressErr := progress.ParseMode("fast", false)
	_, axesErr := axes.Select("bogus")
	_, claimDirErr := claim.ResolveDir("", true, nil)
	_, planErr := analyze.ParsePlanWidth("half-width=0%")
	baselineErr := func(file, allow string, est stats.Estimator) error {
		_, err := analyze.CheckBaseline(file, []string{allow}, est)
		return err
	}
	checkOpt := func(slowdown, growth float64, floor, floorOp string) error {
		_, err := check.ParseOptions(slowdown, growth, floor, floorOp)
		return err
	}
	_, claimCPUsErr := claim.ParseCPUs("x", fstest.MapFS{})
	ropt := func(format, plot string, plotGiven, runGiven bool) error {
		return report.CheckOptions(report.Options{Format: format, Plot: plot}, plotGiven, runGiven)
	}
	cp := func(mode, onTimeout, thermal string) error {
		_, err := conditions.ParsePolicy(mode, onTimeout, thermal, conditions.DefaultLimits, conditions.DefaultPauseTiming)
		return err
	}
	hq := func(q history.Query, where []string, level float64) error {
		_, err := history.ParseQuery(q, where, level)
		return err
	}
	hw := func(where []string) error {
		_, err := history.ParseWhere(check.FieldHistoryWhere, where)
		return err
	}
	unused := map[string]bool{}
	for path := range engineFlags {
		// named only in analysis warnings, reports and check's texts
		// (each engine's tests, and tests/ end to end)
		unused[path] = !slices.Contains([]string{analyze.FieldSeed, check.FieldNoise,
			noise.FieldKeep, importer.FieldNames}, path)
	}
	defer func() {
		for path, u := range unused {
			if u {
				t.Errorf("table entry %s is named by no field error", path)
			}
		}
	}()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{gp(func(p *gate.Policy) { p.MaxAveragePct = -1 }), "--max-average -1: use 0 to 100 (percent)"},
		{gp(func(p *gate.Policy) { p.MaxCorePct = 101 }), "--max-core 101: use 0 to 100 (percent)"},
		{gp(func(p *gate.Policy) { p.Stable = 0 }), "--stable 0s must be positive"},
		{gp(func(p *gate.Policy) { p.Poll = 0 }), "--poll 0s must be positive"},
		{gp(func(p *gate.Policy) { p.Timeout = 0 }), "--timeout 0s must be positive"},
		{gp(func(p *gate.Policy) { p.Timeout = p.Stable / 2 }), "--timeout 500ms is shorter than --stable 1s: a timeout shorter than the stable time can never be satisfied"},
		{gp(func(p *gate.Policy) { p.Poll = time.Minute }), "--poll 1m0s is slower than --timeout 15s: a poll slower than the timeout would let the gate expire unsampled"},
		{ao(func(o *analyze.Options) { o.Resamples = 5 }), "--resamples 5 out of range: use 100 to 10000"},
		{ao(func(o *analyze.Options) { o.ProcessResamples = 5 }), "--process-resamples 5 out of range: use 1000 to 1000000"},
		{ao(func(o *analyze.Options) { o.Confidence = 10 }), "--confidence 10 out of range: use 50 to 99.9 (percent)"},
		{ao(func(o *analyze.Options) { o.ThresholdPct = 100 }), "--threshold 100 out of range: use 0 up to (not including) 100 (percent)"},
		{ao(func(o *analyze.Options) { o.Outcome = "ok" }), `--outcome "ok": use success, failure, timeout, cancelled or all`},
		{ao(func(o *analyze.Options) { o.Family.Multiplicity = "holm" }), `--multiplicity "holm": use bonferroni or none`},
		{ao(func(o *analyze.Options) { o.Family.Scope = "some" }), `--family "some": use time or all`},
		{ao(func(o *analyze.Options) { o.Family.ConfidencePct = 20 }), "--family-confidence 20 out of range: use 50 to 99.9 (percent)"},
		{analyze.CheckAllowed([]string{"host"}), `--allow-mismatch "host" is not a fingerprint field: use `},
		{baselineErr("", "host.os", stats.EstimatorRobust), "--allow-mismatch needs --baseline"},
		{baselineErr("b.ndjson", "", stats.EstimatorLegacy), "--baseline needs schema 1.4 records: use --estimator robust or mean, not legacy"},
		{baselineErr("-", "", stats.EstimatorRobust), "--baseline -: the baseline must be a file (stdin carries the current run)"},
		{planErr, `--plan "half-width=0%": use half-width=P% with P above 0 and below 100, e.g. half-width=1%`},
		{nc(func(c *noise.Config) { c.MinRuns = 2 }), "--min-runs 2: use 3 or more (two deltas are the fewest a spread can be taken of)"},
		{nc(func(c *noise.Config) { c.MaxRuns = 5 }), "--max-runs 5 is below --min-runs 10"},
		{nc(func(c *noise.Config) { c.TolerancePct = 0 }), "--tolerance 0: use a positive percentage"},
		{rp("all", 1), `--retention "all": use reservoir, first or latest`},
		{rp("first", 0), "--capacity 0: keep at least 1 span per benchmark"},
		{ro(func(o *record.Options) { o.Socket, o.FIFO = "s", "f" }), "--socket and --fifo exclude each other: fb-record listens on one"},
		{ro(func(o *record.Options) { o.Refresh = time.Millisecond }), "--refresh 1ms: at least 10ms"},
		{ro(func(o *record.Options) { o.Duration = -time.Second }), "--duration -1s is negative"},
		{ro(func(o *record.Options) { o.FIFO = "." }), `--fifo "." exists`},
		{ro(func(o *record.Options) { o.Socket = "/nonexistent/" + strings.Repeat("s", 101) }), `--socket "/nonexistent/s`},
		{progressErr, `--progress "fast": use auto, tty, plain or none`},
		{cp("sometimes", "", "fair"), `--conditions "sometimes": use observe, pause or fail`},
		{cp("pause", "", "fair"), "--conditions pause needs --conditions-on-timeout observe|fail: what an exhausted pause budget does is never silently defaulted"},
		{cp("pause", "retry", "fair"), "--conditions-on-timeout: "},
		{cp("observe", "", "hot"), "--max-thermal-state: "},
		{hq(history.Query{Metric: "speed"}, nil, 0), `--metric "speed": use `},
		{hq(history.Query{Metric: "median_ns", Last: -1}, nil, 0), "--last -1: use 0 (all) or more"},
		{hq(history.Query{Metric: "median_ns"}, nil, 1), "--change-level 1: use a level between 0 (no change points) and 1, e.g. 0.01"},
		{hq(history.Query{Metric: "median_ns"}, []string{"branch=main"}, 0), `--where "branch=main": want tag.KEY=VALUE, e.g. --where tag.branch=main`},
		{hq(history.Query{Metric: "median_ns"}, []string{"tag.a=1", "tag.a=2"}, 0), "--where tag.a given twice"},
		{hw([]string{"branch=main"}), `--history-where "branch=main": want tag.KEY=VALUE, e.g. --history-where tag.branch=main`},
		{axesErr, `--metrics: unknown axis or set "bogus" (sets: `},
		{claim.Request{Timeout: -time.Second, Poll: time.Second}.Check(), "--timeout -1s is negative"},
		{claim.Request{}.Check(), "--poll 0s: use a positive interval, e.g. 250ms"},
		{claimDirErr, "--path is empty"},
		{checkOpt(-1, 0, "0", "0"), "--max-slowdown -1: use a percentage of 0 or more"},
		{checkOpt(0, -1, "0", "0"), "--max-memory-growth -1: use a percentage of 0 or more"},
		{checkOpt(0, 0, "lots", "0"), "--memory-floor: "},
		{checkOpt(0, 0, "0", "lots"), "--memory-floor-op: "},
		{check.CheckFormat("html"), `--format "html": use console, markdown, ndjson`},
		{check.CheckHistoryRuns(1), "--history-runs 1: use 5 or more (the fewest comparable runs a case is judged against)"},
		{claimCPUsErr, `--cpus "x": give CPU numbers like 2,3 or 0-3`},
		{ropt("pdf", "", false, false), `--format "pdf": use console, csv, json`},
		{ropt("console", "", true, false), "--plot needs --format svg (--format html draws every plot on one page)"},
		{ropt("console", "", false, true), "--run chooses the run of --format svg --plot; drop it or add them"},
		{ropt("svg", "", false, false), "--format svg writes one plot: name it with --plot ("},
		{ropt("svg", "pie", true, false), `--plot "pie": use `},
	} {
		var fe *field.Error
		if !errors.As(tc.err, &fe) {
			t.Errorf("%v: want a field error", tc.err)
			continue
		}
		for _, f := range fe.Fields() {
			delete(unused, f)
		}
		if got := fieldUsage(fe).Error(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
