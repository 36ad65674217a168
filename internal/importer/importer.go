// Package importer turns another benchmark tool's results into a flybench
// stream: for each run the file holds, a run record, one sample record per
// recorded run (or batch) of each case, and an end record, which
// fb-analyze and fb-report read like a stream flybench collected and
// fb-analyze --baseline can compare with. It reads hyperfine's
// --export-json file, Go's benchmark format (through
// golang.org/x/perf/benchfmt), Google Benchmark's JSON and
// pytest-benchmark's JSON. Each input is parsed and checked whole before
// any record is built, so input that cannot be imported yields an error
// and no records.
package importer

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Tool is the name stamped in the tool field of every imported run.
const Tool = "fb-import"

// FieldNames is Options.Names as messages name it.
const FieldNames = "importer.Names"

// analyzeBaseline is fb-analyze's baseline option (analyze.FieldBaseline),
// which matches cases by name.
const analyzeBaseline = "analyze.Baseline"

// Options are the parts of an imported run the source file does not hold.
type Options struct {
	// Names renames the cases, in order; a case beyond them keeps the
	// name the source gave it.
	Names []string
	// Spell spells the options messages name (FieldNames, and
	// fb-analyze's baseline) as the user knows them; nil spells their
	// paths.
	Spell field.Names
	// Tags are the user's fingerprint fields (--tag KEY=VALUE).
	Tags map[string]string
	// Host is the machine the file was made on, when the user asserts
	// it; nil records every host field the file does not give as unknown.
	Host *ndjson.Host
	// Started is the run's start time as recorded in the stream
	// (RFC 3339), "" when unknown.
	Started string
	// ToolVersion is flybench's version, stamped as tool_version.
	ToolVersion string
}

// Result is an import: its records in stream order (a run record, its
// samples and its end record, for each run), and warnings about what the
// source recorded that the stream cannot say as well.
type Result struct {
	Records  []ndjson.Record
	Warnings []string
}

// Stream is the records as one stream, to be written in one write.
func (res *Result) Stream() ([]byte, error) {
	var out bytes.Buffer
	w := ndjson.NewWriter(&out)
	for _, r := range res.Records {
		if err := w.Write(r); err != nil {
			return nil, err
		}
	}
	return out.Bytes(), nil
}

// File is one input: the name messages give it and its bytes.
type File struct {
	Name string
	Data []byte
}

// A format is one FORMAT of fb-import: its parser, what writes its files,
// and whether it reads several files as one import.
type format struct {
	name     string
	parse    func(files []File) ([]*source, error)
	producer string
	many     bool
}

// formats are the formats Import knows, in the order messages list them.
var formats = []format{
	{name: "hyperfine", parse: one(parseHyperfine), producer: "hyperfine --export-json"},
	{name: "gobench", parse: parseGobench, producer: "go test -bench", many: true},
	{name: "gbench", parse: one(parseGbench), producer: "a Google Benchmark binary with --benchmark_format=json or --benchmark_out"},
	{name: "pytest-benchmark", parse: one(parsePytest), producer: "pytest --benchmark-json"},
}

// one adapts a parser of one file.
func one(parse func(file string, data []byte) (*source, error)) func([]File) ([]*source, error) {
	return func(files []File) ([]*source, error) {
		src, err := parse(files[0].Name, files[0].Data)
		if err != nil {
			return nil, err
		}
		return []*source{src}, nil
	}
}

// Formats lists the format names Import knows.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// Producer names the command that writes a format's files.
func Producer(name string) string {
	if f := formatNamed(name); f != nil {
		return f.producer
	}
	return ""
}

// ManyFiles says whether a format reads several files as one import.
func ManyFiles(name string) bool {
	f := formatNamed(name)
	return f != nil && f.many
}

func formatNamed(name string) *format {
	i := slices.IndexFunc(formats, func(f format) bool { return f.name == name })
	if i < 0 {
		return nil
	}
	return &formats[i]
}

// FormatError is an unknown format name.
type FormatError struct{ Name string }

func (e *FormatError) Error() string {
	return fmt.Sprintf("unknown format %q: use %s", e.Name, strings.Join(Formats(), ", "))
}

// Import reads data, the contents of file in the named format, and
// returns the runs it holds. A file that is not that format's shape, or
// whose values cannot be times, gives an *InputError.
func Import(format, file string, data []byte, opt Options) (*Result, error) {
	return ImportFiles(format, []File{{Name: file, Data: data}}, opt)
}

// ImportFiles reads files in the named format as one import: for
// gobench, every file's results of one benchmark are the cases of its
// run; the other formats read one file.
func ImportFiles(name string, files []File, opt Options) (*Result, error) {
	f := formatNamed(name)
	switch {
	case f == nil:
		return nil, &FormatError{Name: name}
	case len(files) == 0 || len(files) > 1 && !f.many:
		return nil, &OptionError{Msg: fmt.Sprintf("%s reads one file, got %d", name, len(files))}
	}
	srcs, err := f.parse(files)
	if err != nil {
		return nil, err
	}
	file := files[0].Name
	res := &Result{}
	for _, src := range srcs {
		if err := checkNames(src, file, opt.Names, opt.Spell); err != nil {
			return nil, err
		}
		recs := build(src, file, opt)
		run := recs[0].(*ndjson.Run)
		if err := checkSize(src, file, files[0].Data, run); err != nil {
			return nil, err
		}
		res.Records = append(res.Records, recs...)
		res.Warnings = append(res.Warnings, warnings(src, run, srcFile(src, file), opt.Spell)...)
	}
	return res, nil
}

// srcFile is the file a source's warnings name: the one file, or for a
// Go benchmark the benchmark's first line.
func srcFile(src *source, file string) string {
	if src.tool == "gobench" && len(src.benchmarks) > 0 {
		return src.benchmarks[0].where
	}
	return file
}

// checkNames refuses more --name values than the source has cases, and
// a case without a name that --name does not give one.
func checkNames(src *source, file string, names []string, spell field.Names) error {
	if src.labels != nil {
		if len(names) > len(src.labels) {
			return &OptionError{Msg: fmt.Sprintf("%d names for %d files or configurations", len(names), len(src.labels))}
		}
		return nil
	}
	if len(names) > len(src.benchmarks) {
		return &OptionError{Msg: fmt.Sprintf("%d names for %d %s in %s", len(names), len(src.benchmarks), unitWord(src), srcFile(src, file))}
	}
	for i, b := range src.benchmarks {
		if b.name == "" && i >= len(names) {
			return &InputError{File: file, Line: b.line, Msg: fmt.Sprintf("command %d has no name: name it with %s", i, spell.Spell(FieldNames))}
		}
	}
	return nil
}

// OptionError is an option that does not fit the imported file.
type OptionError struct{ Msg string }

func (e *OptionError) Error() string { return e.Msg }
