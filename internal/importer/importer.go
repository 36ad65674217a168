// Package importer turns another benchmark tool's results into a flybench
// stream: a run record, one sample record per recorded run of each
// command, and an end record, which fb-analyze and fb-report read like a
// stream flybench collected and fb-analyze --baseline can compare with.
// Each format is parsed and checked whole before any record is built, so
// a file that cannot be imported yields an error and no records.
package importer

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Tool is the name stamped in the tool field of every imported run.
const Tool = "fb-import"

// Options are the parts of an imported run the source file does not hold.
type Options struct {
	// Names renames the cases, in order; a case beyond them keeps the
	// name the source gave it.
	Names []string
	// Tags are the user's fingerprint fields (--tag KEY=VALUE).
	Tags map[string]string
	// Host is the machine the file was made on, when the user asserts
	// it; nil records every host field as unknown.
	Host *ndjson.Host
	// Started is the run's start time as recorded in the stream
	// (RFC 3339), "" when unknown.
	Started string
	// ToolVersion is flybench's version, stamped as tool_version.
	ToolVersion string
}

// Result is an imported run: its records in stream order, and warnings
// about what the source recorded that the stream cannot say as well.
type Result struct {
	Records  []ndjson.Record
	Warnings []string
}

// importers maps each format name to its parser.
var importers = map[string]func(file string, data []byte) (*source, error){
	"hyperfine": parseHyperfine,
}

// producers names, for each format, what writes its files.
var producers = map[string]string{
	"hyperfine": "hyperfine --export-json",
}

// Formats lists the format names Import knows.
func Formats() []string { return []string{"hyperfine"} }

// Producer names the command that writes a format's files.
func Producer(format string) string { return producers[format] }

// FormatError is an unknown format name.
type FormatError struct{ Name string }

func (e *FormatError) Error() string {
	return fmt.Sprintf("unknown format %q: use %s", e.Name, strings.Join(Formats(), ", "))
}

// Import reads data, the contents of file in the named format, and
// returns the run it holds. A file that is not that format's shape, or
// whose values cannot be times, gives an *InputError.
func Import(format, file string, data []byte, opt Options) (*Result, error) {
	parse, ok := importers[format]
	if !ok {
		return nil, &FormatError{Name: format}
	}
	src, err := parse(file, data)
	if err != nil {
		return nil, err
	}
	if len(opt.Names) > len(src.benchmarks) {
		return nil, &OptionError{Msg: fmt.Sprintf("%d names for %d commands in %s", len(opt.Names), len(src.benchmarks), file)}
	}
	for i, b := range src.benchmarks {
		if b.name == "" && i >= len(opt.Names) {
			return nil, &InputError{File: file, Line: b.line, Msg: fmt.Sprintf("command %d has no name: name it with --name", i)}
		}
	}
	res := build(src, file, data, opt)
	if err := checkSize(src, file, data, res.Records[0].(*ndjson.Run)); err != nil {
		return nil, err
	}
	return res, nil
}

// OptionError is an option that does not fit the imported file.
type OptionError struct{ Msg string }

func (e *OptionError) Error() string { return e.Msg }
