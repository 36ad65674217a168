package cli

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/importer"
	"github.com/flybench/flybench/internal/version"
	"github.com/flybench/flybench/pkg/probes"
)

const importDescription = `Reads another tool's results from FILE (or stdin, or - for stdin) and writes them to stdout
as an archived flybench stream (man fb-stream(5)): a run record, one sample record per
recorded run of each case, and an end record. fb-analyze and fb-report read it like any
stream, and fb-analyze --baseline can compare a later run with it.

FORMAT is one of:
  hyperfine         the file hyperfine --export-json writes; each command a case
  gobench           go test -bench output (Go's benchmark format), one or more FILEs: each
                    benchmark a run, each file (or configuration) its case, each line a sample
  gbench            Google Benchmark's JSON (--benchmark_format=json, with repetitions)
  pytest-benchmark  pytest --benchmark-json: each round a sample where the file saved them
The cases ran one after another, so the run's design is sequential: fb-analyze compares them
as independent samples and labels the comparison as exposed to drift. A host field the file
does not record is "unknown" unless --this-host stamps this machine's fingerprint.

The whole file is checked before anything is written: a file that cannot be imported leaves
stdout empty. Exit status: 0 ok, 2 usage (an unknown FORMAT, an unreadable FILE, a bad flag), 3
FILE is not the format's shape or holds a value that cannot be a time (reported as file:line),
14 the stream could not be written.`

func importApp(env Env) *ucli.App {
	app := newApp(env, "fb-import", "turn another benchmark tool's results into a flybench stream",
		"FORMAT [FILE...]", importDescription)
	app.Flags = []ucli.Flag{
		&ucli.StringSliceFlag{Name: "name", Category: output, Usage: "name of the next command, in the file's order (repeat for each command; default: the name the file gives it)"},
		tagFlag(),
		&ucli.BoolFlag{Name: "this-host", Category: host, Usage: "record this machine's host fingerprint: say so only when the file was made here"},
		&ucli.StringFlag{Name: "started", Category: output, Usage: "the run's start time, RFC 3339 (e.g. 2026-12-01T10:00:00Z), where the file records none: instead of the file's modification time (fb-history orders a series by it)"},
	}
	app.Action = func(c *ucli.Context) error {
		format, files, err := importArgs(c)
		if err != nil {
			return err
		}
		opt, err := importOptions(c)
		if err != nil {
			return err
		}
		return runImport(env, format, files, opt)
	}
	return app
}

// importArgs is FORMAT and its FILEs ("-" when absent; several only for
// a format that reads several); an unknown format is a usage error before
// any file is read.
func importArgs(c *ucli.Context) (format string, files []string, err error) {
	args := c.Args().Slice()
	if len(args) == 0 {
		return "", nil, withCode(ExitUsage, errors.New("want FORMAT [FILE...], got no arguments"), "see 'fb-import --help'")
	}
	if !slices.Contains(importer.Formats(), args[0]) {
		return "", nil, withCode(ExitUsage, &importer.FormatError{Name: args[0]}, "")
	}
	files = args[1:]
	switch {
	case len(files) == 0:
		files = []string{"-"}
	case len(files) > 1 && !importer.ManyFiles(args[0]):
		return "", nil, withCode(ExitUsage, fmt.Errorf("%s reads one FILE, got %d", args[0], len(files)), "see 'fb-import --help'")
	}
	return args[0], files, nil
}

func importOptions(c *ucli.Context) (importer.Options, error) {
	tags, err := tagsOf(c.StringSlice("tag"))
	if err != nil {
		return importer.Options{}, err
	}
	opt := importer.Options{Names: c.StringSlice("name"), Tags: tags, ToolVersion: version.Version, Spell: flagName}
	if s := c.String("started"); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return opt, usageErrorf("--started %q: want an RFC 3339 time, e.g. 2026-12-01T10:00:00Z", s)
		}
		opt.Started = t.UTC().Format(time.RFC3339Nano)
	}
	if c.Bool("this-host") {
		h := probes.Fingerprint(os.DirFS("/"))
		opt.Host = &h
	}
	return opt, nil
}

// runImport reads the files whole, converts them, and only then writes
// the stream, in one write.
func runImport(env Env, format string, files []string, opt importer.Options) error {
	var in []importer.File
	for _, file := range files {
		f, started, err := readImport(env, file)
		if err != nil {
			return err
		}
		opt.Started = cmp.Or(opt.Started, started)
		in = append(in, f)
	}
	res, err := importer.ImportFiles(format, in, opt)
	var ie *importer.InputError
	var oe *importer.OptionError
	switch {
	case errors.As(err, &ie):
		return withCode(ExitBadInput, err, "nothing was written; fb-import reads the file "+importer.Producer(format)+" writes, unedited")
	case errors.As(err, &oe):
		return withCode(ExitUsage, err, "")
	case err != nil:
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(env.Stderr, "fb-import: warning: %s\n", w)
	}
	out, err := res.Stream()
	if err != nil {
		return err
	}
	if _, err := env.Stdout.Write(out); err != nil {
		return outputFailed(fmt.Errorf("write stream: %w", err))
	}
	return nil
}

// readImport reads file (stdin for "-") whole, with its modification
// time (importer.Read); a file too large to be a results file is a bad
// input, one that cannot be read a usage error.
func readImport(env Env, file string) (importer.File, string, error) {
	f, modified, err := importer.Read(file, env.Stdin)
	if errors.As(err, new(*importer.InputError)) {
		return f, "", withCode(ExitBadInput, err, "")
	}
	if err != nil {
		return f, "", withCode(ExitUsage, err, "")
	}
	return f, modified, nil
}
