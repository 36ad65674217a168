package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/changepoint"
	"github.com/flybench/flybench/internal/history"
)

const historyDescription = `Keeps analysed streams in a results store and reads them back as series.

  add STREAM...   records each analysed stream (fb-analyze output; - or none for stdin): every
                  run's id, start, host fingerprint and machine class, tags (the run's own and
                  each --tag), per-case summaries, every comparison with its interval and
                  verdict, and the stream itself, gzip-compressed under its SHA-256. A run the
                  store holds is left as it is: adding is idempotent by run id. Every stream is
                  read and checked before the first run is added.
  show            writes series records (man fb-stream(5)) for fb-report: each case's level per
                  run (--metric) in the order the runs started, one series per case and machine
                  class, of the runs whose tags match every --where; the newest --last points,
                  with the level shifts among them (E-divisive means, a permutation test at
                  --change-level, seeded by --seed). --chain: chained paired changes instead,
                  the product of each run's paired contender/reference time ratio, with its interval.

The store is --db DSN, else $FLYBENCH_DB, else the SQLite file flybench.db: a file name (or
sqlite:FILE) is a SQLite database, created when missing; postgres://... is a PostgreSQL
server. Both have the same schema, migrated in versions when a newer fb-history opens them;
concurrent writers (CI jobs adding at once) each add whole runs and lose none.

Exit status: 0 ok, 1 the store failed (cannot connect, a write refused), 2 usage (no verb, an
unknown verb, an unreadable STREAM, a bad flag, an unknown --metric), 3 a bad stream line (file:line), 4 a stream of
an unknown major schema version or a store whose schema is newer than this fb-history, 6 a
run without its analysis (pipe it through fb-analyze), 14 the output could not be written.`

// historyVerbs are fb-history's verbs, its first argument.
var historyVerbs = []string{"add", "show"}

func historyApp(env Env) *ucli.App {
	app := newApp(env, "fb-history", "keep analysed runs in a results store (SQLite or PostgreSQL) and read them back as series",
		"add [STREAM...] | show", historyDescription)
	app.UsageText = "fb-history add [options] [STREAM...]\nfb-history show [options]"
	app.Flags = []ucli.Flag{
		&ucli.StringFlag{Name: "db", Category: store, Usage: "the store: a SQLite file (or sqlite:FILE) or a postgres:// URL (default: $FLYBENCH_DB, else " + history.DefaultDSN + ")"},
		&ucli.StringSliceFlag{Name: "tag", Category: output, Usage: "add: KEY=VALUE recorded with every run added (repeatable), replacing a run's own tag of that key: revision, branch, runner class"},
		&ucli.StringFlag{Name: "case", Category: store, Usage: "show: the case whose series to write (default: every case)"},
		&ucli.StringSliceFlag{Name: "where", Category: store, Usage: "show: tag.KEY=VALUE a run must have (repeatable; all must hold), e.g. tag.branch=main"},
		&ucli.StringFlag{Name: "class", Category: store, Usage: "show: one machine class, os/arch/cpu_model/cpus as add records it (default: each class its own series)"},
		&ucli.StringFlag{Name: "metric", Category: store, Value: "median_ns", Usage: "show: the summary each point is: " + strings.Join(history.Metrics(), ", ") + " (the normalized score: one series across classes)"},
		&ucli.IntFlag{Name: "last", Category: store, Value: 500, Usage: "show: the newest N points of each series (0: all)"},
		&ucli.BoolFlag{Name: "chain", Category: store, Usage: "show: chained paired changes instead of levels: for each pair of cases compared (--case: the contender), the product of the runs' paired time ratios, oldest first, with its interval"},
		&ucli.Float64Flag{Name: "change-level", Category: statistics, Value: changepoint.DefaultOptions.Level, Usage: "show: significance level of each change point's permutation test (E-divisive means); 0 looks for none"},
		&ucli.Uint64Flag{Name: "seed", Category: statistics, Value: changepoint.DefaultOptions.Seed, Usage: "show: seed of the permutation tests: the same store, flags and seed give the same change points"},
	}
	app.Action = func(c *ucli.Context) error {
		verb, args := env.verb, c.Args().Slice()
		if verb == "" && len(args) > 0 {
			verb, args = args[0], args[1:]
		}
		switch verb {
		case "add":
			return runHistoryAdd(c, env, args)
		case "show":
			return runHistoryShow(c, env, args)
		case "":
			return withCode(ExitUsage, errors.New("want a verb: "+strings.Join(historyVerbs, ", ")), "see 'fb-history --help'")
		}
		return withCode(ExitUsage, fmt.Errorf("unknown verb %q: use %s", verb, strings.Join(historyVerbs, ", ")), "see 'fb-history --help'")
	}
	return app
}

// historyVerbFirst takes a leading verb off fb-history's arguments, so
// its flags may follow it ("fb-history add --db x.db a.ndjson"), as the
// flag parser stops at the first argument that is not a flag.
func historyVerbFirst(env Env, args []string) (Env, []string) {
	if len(args) > 1 && slices.Contains(historyVerbs, args[1]) {
		env.verb = args[1]
		return env, append([]string{args[0]}, args[2:]...)
	}
	return env, args
}

// historyDSN is --db, else $FLYBENCH_DB, else the default file.
func historyDSN(c *ucli.Context, env Env) (string, error) {
	if c.IsSet("db") && c.String("db") == "" {
		return "", usageErrorf("--db is empty: give a SQLite file or a postgres:// URL")
	}
	return cmp.Or(c.String("db"), env.Getenv("FLYBENCH_DB"), history.DefaultDSN), nil
}

// openHistory opens the store, its errors worded for the user.
func openHistory(dsn string) (*history.Store, error) {
	return openStore(history.Open(dsn))
}

// openShown opens the store show reads: a SQLite file that does not exist
// is refused (a mistyped --db), not created empty.
func openShown(dsn string) (*history.Store, error) {
	s, err := history.OpenExisting(dsn)
	var de *history.DSNError
	if errors.As(err, &de) {
		return nil, withCode(ExitUsage, err, "fb-history add creates a store; check --db and $FLYBENCH_DB")
	}
	return openStore(s, err)
}

// openStore maps what opening a store returned to exit codes.
func openStore(s *history.Store, err error) (*history.Store, error) {
	var de *history.DSNError
	var ve *history.VersionError
	switch {
	case errors.As(err, &de):
		return nil, withCode(ExitUsage, err, "")
	case errors.As(err, &ve):
		return nil, withCode(ExitSchema, err, "this store was written by a newer fb-history: use that one")
	case err != nil:
		return nil, withCode(ExitFailure, fmt.Errorf("store: %w", err), "")
	}
	return s, nil
}

func runHistoryAdd(c *ucli.Context, env Env, files []string) error {
	tags, err := tagsOf(c.StringSlice("tag"))
	if err != nil {
		return err
	}
	dsn, err := historyDSN(c, env)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var inputs []history.Input
	for _, f := range files {
		in, err := readHistoryInput(env, f)
		if err != nil {
			return err
		}
		inputs = append(inputs, in)
	}
	s, err := openHistory(dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.AddAll(env.Stdout, inputs, tags); err != nil {
		return withCode(ExitFailure, err, "")
	}
	return nil
}

// readHistoryInput reads and parses one stream before anything is added.
func readHistoryInput(env Env, file string) (history.Input, error) {
	f, _, err := readImport(env, file)
	if err != nil {
		return history.Input{}, err
	}
	in, err := history.ParseInput(f.Name, f.Data)
	var nae *history.NotAnalyzedError
	if errors.As(err, &nae) {
		return in, withCode(ExitNotAnalyzed, err, "pipe the stream through fb-analyze; nothing was added")
	}
	if err != nil {
		return in, streamError(err, "fix or remove that line; nothing was added")
	}
	return in, nil
}

func runHistoryShow(c *ucli.Context, env Env, args []string) error {
	if len(args) > 0 {
		return usageErrorf("show takes no arguments, got %q: select with --case, --where and --class", args[0])
	}
	q, err := historyQuery(c)
	if err != nil {
		return err
	}
	dsn, err := historyDSN(c, env)
	if err != nil {
		return err
	}
	s, err := openShown(dsn)
	if err != nil {
		return err
	}
	defer s.Close()
	changes := changepoint.DefaultOptions
	changes.Level, changes.Seed = c.Float64("change-level"), c.Uint64("seed")
	series, err := s.Show(q, c.Bool("chain"), changes)
	var keep *history.KeepError
	if errors.As(err, &keep) {
		fmt.Fprintf(env.Stderr, "fb-history: warning: %v (the next show searches them again)\n", err)
	} else if err != nil {
		return withCode(ExitFailure, err, "")
	}
	if len(series) == 0 {
		fmt.Fprintf(env.Stderr, "fb-history: warning: %s holds no run that matches: no series written\n", s.Name)
	}
	out, err := history.SeriesStream(series)
	if err != nil {
		return err
	}
	if _, err := io.WriteString(env.Stdout, out); err != nil {
		return outputFailed(fmt.Errorf("write series: %w", err))
	}
	return nil
}

// historyQuery reads show's flags.
func historyQuery(c *ucli.Context) (history.Query, error) {
	q := history.Query{Case: c.String("case"), Class: c.String("class"), Metric: c.String("metric"), Last: c.Int("last")}
	q, err := history.ParseQuery(q, c.StringSlice("where"), c.Float64("change-level"))
	return q, fieldUsage(err)
}
