package importer

import (
	"github.com/flybench/flybench/internal/custom"
	"github.com/flybench/flybench/pkg/ndjson"
)

// source is an imported run in the terms of a flybench run: the tool that
// wrote it, how its times were taken, and each benchmark's runs in the
// order they ran. A file of hyperfine, Google Benchmark or
// pytest-benchmark is one source; Go benchmark files give one source per
// benchmark.
type source struct {
	// tool names the format's tool; it becomes the run's source field.
	tool string
	// mode is how one operation was executed; exec when empty.
	mode ndjson.Mode
	// timer is the run's timer; nil is wall time with timerNote.
	timer *ndjson.Timer
	// timerNote says what the recorded times include and exclude.
	timerNote string
	// clock names the clock the times were read from, as far as known.
	clock string
	// batching is the run's batching; shared-iterations when empty.
	batching string
	// decls are the custom axes the samples carry besides the time, and
	// builtin the catalogue's (hyperfine's rss_peak).
	decls   []custom.Descriptor
	builtin []ndjson.AxisInfo
	// host holds what the file says of its machine (empty: unknown).
	host ndjson.Host
	// started is when the file says the run started (RFC 3339, UTC);
	// "" when it does not.
	started string
	// tags are fingerprint fields the file records (Go's config lines).
	tags map[string]string
	// failed says how a file comes to hold failed runs; zero why a time
	// is 0 and what to do about it.
	failed, zero string
	// ident is what of the input names this run (the file's bytes, or
	// every file's and the benchmark's name), for its run id.
	ident      []byte
	benchmarks []benchmark
	// labels, for Go benchmark files, name what each case is in all of
	// them (its file, or configuration): a case is its benchmark and its
	// label, and --name renames the labels. Empty strings when there is
	// one; nil for the other formats, whose --name renames cases.
	labels []string
	// warnings are the format's own, about what it could not import as
	// well as the file holds it.
	warnings []string
}

// benchmark is one case's runs.
type benchmark struct {
	// name is what the source calls the case; command is its command
	// line, or the benchmark the source ran, as far as it records it.
	name, command string
	// file is the file the case was read from, when the source reads
	// several (Go benchmarks); "" for the one file imported.
	file string
	// line is where the benchmark begins in the file, where where names
	// its command for messages (e.g. results[2].command).
	line  int
	where string
	// path is where its command is in a JSON file (for lineAt).
	path   []any
	params map[string]string
	// label is the index of the case's label in the source's labels.
	label int
	// runs are the recorded runs (or batches), in the order run.
	runs []timing
	// failed counts runs that exited with a non-zero status or were
	// killed by a signal.
	failed int
}

// timing is one recorded run or batch: iter operations, ns nanoseconds
// per operation (a whole number for a single run: hyperfine's times),
// and the values of the source's custom axes.
type timing struct {
	iter int64
	ns   float64
	axes map[string]ndjson.AxisValue
}

// setAxis gives the run a value or status of an axis.
func (t *timing) setAxis(name string, v ndjson.AxisValue) {
	if t.axes == nil {
		t.axes = map[string]ndjson.AxisValue{}
	}
	t.axes[name] = v
}

// zeros counts the runs recorded as taking no time at all.
func (b *benchmark) zeros() int {
	n := 0
	for _, t := range b.runs {
		if t.ns == 0 {
			n++
		}
	}
	return n
}
