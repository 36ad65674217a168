package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/importer"
	"github.com/flybench/flybench/internal/version"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

const importDescription = `Reads another tool's results from FILE (or stdin, or - for stdin) and writes them to stdout
as an archived flybench stream (man fb-stream(5)): a run record, one sample record per
recorded run of each command, and an end record. fb-analyze and fb-report read it like any
stream, and fb-analyze --baseline can compare a later run with it.

FORMAT hyperfine reads the file hyperfine --export-json writes. Its commands ran one after
another, so the run's design is sequential: fb-analyze compares the cases as independent
samples and labels the comparison as exposed to drift. The file records no host: every host
field is "unknown" unless --this-host stamps this machine's fingerprint.

The whole file is checked before anything is written: a file that cannot be imported leaves
stdout empty. Exit status: 0 ok, 2 usage (an unknown FORMAT, an unreadable FILE, a bad flag), 3
FILE is not the format's shape or holds a value that cannot be a time (reported as file:line),
14 the stream could not be written.`

// maxImportBytes bounds the file read into memory.
const maxImportBytes = 256 << 20

func importApp(env Env) *ucli.App {
	app := newApp(env, "fb-import", "turn another benchmark tool's results into a flybench stream",
		"FORMAT [FILE]", importDescription)
	app.Flags = []ucli.Flag{
		&ucli.StringSliceFlag{Name: "name", Usage: "name of the next command, in the file's order (repeat for each command; default: the name the file gives it)"},
		tagFlag(),
		&ucli.BoolFlag{Name: "this-host", Usage: "record this machine's host fingerprint: say so only when the file was made here"},
	}
	app.Action = func(c *ucli.Context) error {
		format, file, err := importArgs(c)
		if err != nil {
			return err
		}
		opt, err := importOptions(c)
		if err != nil {
			return err
		}
		return runImport(env, format, file, opt)
	}
	return app
}

// importArgs is FORMAT and FILE ("-" when absent); an unknown format is a
// usage error before any file is read.
func importArgs(c *ucli.Context) (format, file string, err error) {
	args := c.Args().Slice()
	if len(args) == 0 || len(args) > 2 {
		return "", "", withCode(ExitUsage, fmt.Errorf("want FORMAT [FILE], got %d arguments", len(args)), "see 'fb-import --help'")
	}
	file = "-"
	if len(args) == 2 {
		file = args[1]
	}
	for _, f := range importer.Formats() {
		if f == args[0] {
			return args[0], file, nil
		}
	}
	return "", "", withCode(ExitUsage, &importer.FormatError{Name: args[0]}, "")
}

func importOptions(c *ucli.Context) (importer.Options, error) {
	tags, err := tagsOf(c.StringSlice("tag"))
	if err != nil {
		return importer.Options{}, err
	}
	opt := importer.Options{Names: c.StringSlice("name"), Tags: tags, ToolVersion: version.Version}
	if c.Bool("this-host") {
		h := probes.Fingerprint(os.DirFS("/"))
		opt.Host = &h
	}
	return opt, nil
}

// runImport reads file whole, converts it, and only then writes the
// stream, in one write.
func runImport(env Env, format, file string, opt importer.Options) error {
	data, name, started, err := readImport(env, file)
	if err != nil {
		return err
	}
	opt.Started = started
	res, err := importer.Import(format, name, data, opt)
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
	var out bytes.Buffer
	w := ndjson.NewWriter(&out)
	for _, r := range res.Records {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	if _, err := env.Stdout.Write(out.Bytes()); err != nil {
		return outputFailed(fmt.Errorf("write stream: %w", err))
	}
	return nil
}

// readImport reads file (stdin for "-") and returns its bytes, the name
// errors give it, and its modification time in UTC as RFC 3339 (empty for
// stdin): the nearest thing to a start time a results file records.
func readImport(env Env, file string) (data []byte, name, modified string, err error) {
	in, name := env.Stdin, "stdin"
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, "", "", withCode(ExitUsage, fmt.Errorf("open input: %w", err), "")
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			modified = st.ModTime().UTC().Format(time.RFC3339)
		}
		in, name = f, file
	}
	data, err = io.ReadAll(io.LimitReader(in, maxImportBytes+1))
	if err != nil {
		return nil, "", "", withCode(ExitUsage, fmt.Errorf("read %s: %w", name, err), "")
	}
	if len(data) > maxImportBytes {
		return nil, "", "", withCode(ExitBadInput, &importer.InputError{File: name, Msg: "larger than 256 MiB: not a results file"}, "")
	}
	return data, name, modified, nil
}
