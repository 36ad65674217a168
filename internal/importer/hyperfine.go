package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The hyperfine --export-json document (hyperfine 1.x): an object whose
// "results" array holds one object per command, in the order the commands
// ran. Only the fields the stream needs are read; hyperfine's own
// statistics (mean, stddev, median, min, max, user, system) are
// recomputed by fb-analyze from "times" or cannot be per run.
// "memory_usage_byte" (1.20) is read as an upper bound of each run's peak
// (hfPeak). Pointers tell a missing or null field from a zero.
type hfDocument struct {
	Results *[]hfResult `json:"results"`
}

type hfResult struct {
	// Command is the command line with its parameters filled in, or the
	// --command-name given for it.
	Command *string     `json:"command"`
	Times   *[]*float64 `json:"times"`
	// ExitCodes has one entry per time (hyperfine 1.12 and later): null
	// for a run killed by a signal.
	ExitCodes  *[]*int32          `json:"exit_codes"`
	Parameters map[string]*string `json:"parameters"`
	// MemoryUsageByte has one entry per time (hyperfine 1.20).
	MemoryUsageByte *[]*float64 `json:"memory_usage_byte"`
}

// What hyperfine's times are, and why some are 0 or come from failed runs.
const (
	hfTimerNote = "hyperfine's wall time of each run as exported: with its default shell, less the mean spawning time of an empty shell, clamped at 0"
	hfZero      = "the run took less than the shell-spawning time hyperfine subtracts, and it recorded 0; fb-analyze summarizes such a case but cannot compare it: measure it without a shell (hyperfine -N) or with more work per run"
	hfFailed    = "hyperfine --ignore-failure"
)

// hfClock is what is known of the clock behind hyperfine's times.
const hfClock = "hyperfine (unknown)"

// maxSeconds is the longest time that fits int64 nanoseconds.
const maxSeconds = math.MaxInt64 / 1e9

// parseHyperfine reads a hyperfine --export-json file. The document is
// decoded with encoding/json, which checks the whole of it against JSON's
// grammar before it decodes any field.
func parseHyperfine(file string, data []byte) (*source, error) {
	var doc hfDocument
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &InputError{File: file, Msg: "the file is empty: hyperfine writes it when its first command has finished"}
	}
	if err := checkUTF8(file, data); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, decodeError(file, data, err, hfWords)
	}
	bad := func(msg string, path ...any) error {
		return &InputError{File: file, Line: lineAt(data, path...), Msg: msg}
	}
	if doc.Results == nil {
		return nil, bad(`no "results" array: not a hyperfine --export-json file`)
	}
	if len(*doc.Results) == 0 {
		return nil, bad(`"results" is empty: hyperfine finished no command`, "results")
	}
	src := &source{tool: "hyperfine", timerNote: hfTimerNote, clock: hfClock, failed: hfFailed, zero: hfZero, ident: data}
	for i, r := range *doc.Results {
		b, err := hfBenchmark(r, i, bad)
		if err != nil {
			return nil, err
		}
		b.line = lineAt(data, "results", i)
		b.where, b.path = fmt.Sprintf("results[%d].command", i), []any{"results", i, "command"}
		src.benchmarks = append(src.benchmarks, b)
	}
	if err := hfPeaks(src, *doc.Results, bad); err != nil {
		return nil, err
	}
	return src, nil
}

// hfBenchmark checks result i and converts its times to nanoseconds.
func hfBenchmark(r hfResult, i int, bad func(string, ...any) error) (benchmark, error) {
	at := fmt.Sprintf("results[%d]", i)
	switch {
	case r.Command == nil:
		return benchmark{}, bad(at+` has no "command"`, "results", i)
	case r.Times == nil:
		return benchmark{}, bad(at+` has no "times": hyperfine writes every run's time there; export again with hyperfine --export-json`, "results", i)
	case len(*r.Times) == 0:
		return benchmark{}, bad(at+`.times is empty: no runs to import`, "results", i, "times")
	case r.ExitCodes != nil && len(*r.ExitCodes) != len(*r.Times):
		return benchmark{}, bad(fmt.Sprintf("%s has %d exit codes for %d times: not a file hyperfine wrote", at, len(*r.ExitCodes), len(*r.Times)), "results", i, "exit_codes")
	}
	b := benchmark{name: *r.Command, command: *r.Command, runs: make([]timing, len(*r.Times))}
	for j, t := range *r.Times {
		where := fmt.Sprintf("%s.times[%d]", at, j)
		switch {
		case t == nil:
			return benchmark{}, bad(where+" is null, want a time in seconds", "results", i, "times", j)
		case *t < 0 || *t > maxSeconds:
			return benchmark{}, bad(fmt.Sprintf("%s is %g s: a time is from 0 to %.3g s; fix or remove that run", where, *t, maxSeconds), "results", i, "times", j)
		}
		b.runs[j] = timing{iter: 1, ns: math.Round(*t * 1e9)}
	}
	if r.ExitCodes != nil {
		for _, c := range *r.ExitCodes {
			if c == nil || *c != 0 {
				b.failed++
			}
		}
	}
	params, err := hfParams(r.Parameters, at, i, bad)
	b.params = params
	return b, err
}

// hfParams copies a result's parameter values.
func hfParams(in map[string]*string, at string, i int, bad func(string, ...any) error) (map[string]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		if v == nil {
			return nil, bad(fmt.Sprintf("%s.parameters.%s is null, want its value as a string", at, k), "results", i, "parameters", k)
		}
		out[k] = *v
	}
	return out, nil
}

// docWords are how a JSON format's refusals name its document and the
// number its times are given in.
type docWords struct {
	// shape is what the document should be: `an object with a "results"
	// array`; what names the file: "a hyperfine --export-json file".
	shape, what string
	// number is the JSON number a float64 field holds.
	number string
}

var hfWords = docWords{shape: `an object with a "results" array`, what: "a hyperfine --export-json file", number: "a number of seconds"}

// decodeError turns an encoding/json error into an InputError at the
// line of the fault.
func decodeError(file string, data []byte, err error, words docWords) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &InputError{File: file, Line: lineOfOffset(data, se.Offset), Msg: "not JSON: " + se.Error()}
	case errors.As(err, &te) && te.Field == "":
		return &InputError{File: file, Line: lineOfOffset(data, te.Offset),
			Msg: fmt.Sprintf(`the document is a JSON %s, not %s: not %s`, te.Value, words.shape, words.what)}
	case errors.As(err, &te) && strings.HasPrefix(te.Value, "number "):
		return &InputError{File: file, Line: lineOfOffset(data, te.Offset),
			Msg: fmt.Sprintf("%s holds the %s, out of range for %s", te.Field, te.Value, kindOf(te.Type, words))}
	case errors.As(err, &te):
		return &InputError{File: file, Line: lineOfOffset(data, te.Offset),
			Msg: fmt.Sprintf("%s holds a JSON %s, want %s", te.Field, te.Value, kindOf(te.Type, words))}
	}
	return &InputError{File: file, Msg: err.Error()}
}

// kindOf names the JSON a Go type decodes from.
func kindOf(t reflect.Type, words docWords) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Float64:
		return words.number
	case reflect.Int32:
		return "an integer exit status or null"
	case reflect.Int64, reflect.Int:
		return "an integer"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "an array"
	}
	return "an object"
}

// hyperfine's memory_usage_byte is ru_maxrss of getrusage(RUSAGE_CHILDREN)
// after each run: the largest peak of every child hyperfine has reaped so
// far, its warm-up runs and earlier runs included, each of which
// inherited hyperfine's own high-water mark when it was spawned. It is an
// upper bound of the run's own peak, so it becomes rss_peak with status
// unattributable and the bound in the reason, never a value.
const (
	hfPeakMethod = "hyperfine memory_usage_byte"
	hfPeakReason = "hyperfine's memory_usage_byte is the largest peak of every child it had reaped by the end of the run (getrusage RUSAGE_CHILDREN), not the run's own: an upper bound of it"
	hfPeakBound  = "an upper bound only: the run's peak is at most %.1f MiB (hyperfine's memory_usage_byte)"
	hfPeakNone   = "hyperfine recorded no memory_usage_byte for this command"
)

// hfPeaks adds rss_peak to every run when any result has
// memory_usage_byte, which must have one number of bytes per time.
func hfPeaks(src *source, results []hfResult, bad func(string, ...any) error) error {
	if !slices.ContainsFunc(results, func(r hfResult) bool { return r.MemoryUsageByte != nil }) {
		return nil
	}
	for i, r := range results {
		b := &src.benchmarks[i]
		if r.MemoryUsageByte == nil {
			for j := range b.runs {
				b.runs[j].setAxis("rss_peak", ndjson.AxisValue{S: string(axes.ProbeFailed), R: hfPeakNone})
			}
			continue
		}
		at := fmt.Sprintf("results[%d].memory_usage_byte", i)
		if len(*r.MemoryUsageByte) != len(b.runs) {
			return bad(fmt.Sprintf("%s has %d values for %d times: not a file hyperfine wrote", at, len(*r.MemoryUsageByte), len(b.runs)), "results", i, "memory_usage_byte")
		}
		for j, m := range *r.MemoryUsageByte {
			if m == nil || *m < 0 || *m != math.Trunc(*m) || *m > 1<<62 {
				return bad(fmt.Sprintf("%s[%d] is not a number of bytes", at, j), "results", i, "memory_usage_byte", j)
			}
			b.runs[j].setAxis("rss_peak", ndjson.AxisValue{S: string(axes.Unattributable), R: fmt.Sprintf(hfPeakBound, *m/(1<<20))})
		}
	}
	a, _ := axes.Lookup("rss_peak")
	src.builtin = append(src.builtin, ndjson.AxisInfo{Name: a.Name, Unit: a.Unit, Family: a.Family, Scope: a.Scope, Attribution: a.Attribution,
		Direction: string(a.Direction), Normalization: string(a.Normalization), Status: string(axes.Unattributable), Reason: hfPeakReason, Method: hfPeakMethod})
	return nil
}
