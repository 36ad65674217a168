package record

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// MaxBenchmarks bounds the benchmarks of one recording.
const MaxBenchmarks = 256

// Clock reads a monotonic clock in nanoseconds (the probes package's).
type Clock = probes.Clock

// Recording is the state every connection feeds: the benchmarks in the
// order they were first named, each with its tallies, retained spans and
// rolling window. It is safe for concurrent use.
type Recording struct {
	policy Policy
	clock  Clock
	start  int64

	mu      sync.Mutex
	byName  map[string]*Bench
	benches []*Bench
	axes    []ndjson.AxisInfo // axes besides wall, from recorder streams

	limits Limits
	// pending is the bytes of unfinished recorder-stream lines all
	// connections hold; open the spans begun and not ended on all of them.
	pending, open atomic.Int64

	protocolErrors, refused, shed, discarded, droppedAxes atomic.Int64
}

// New starts a recording now.
func New(p Policy, c Clock) *Recording {
	return &Recording{policy: p, clock: c, start: c.Now(), byName: map[string]*Bench{}, limits: DefaultLimits}
}

// Now is the time since the recording started, in ns.
func (r *Recording) Now() int64 { return r.clock.Now() - r.start }

// Bench returns the benchmark called name, declaring it if it is new.
func (r *Recording) Bench(name []byte) (*Bench, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.byName[string(name)]; b != nil {
		return b, nil
	}
	if len(r.benches) == MaxBenchmarks {
		return nil, parseErrorf("benchmark %q would be number %d: a recording holds at most %d", clip(name), MaxBenchmarks+1, MaxBenchmarks)
	}
	b := &Bench{Index: len(r.benches), Name: string(name), store: newStore(r.policy, len(r.benches))}
	r.byName[b.Name] = b
	r.benches = append(r.benches, b)
	return b, nil
}

// Benches is every benchmark so far, by index.
func (r *Recording) Benches() []*Bench {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Bench(nil), r.benches...)
}

// Policy is the recording's retention.
func (r *Recording) Policy() Policy { return r.policy }

// ProtocolErrors counts the connections closed (or, on a FIFO, the lines
// skipped) for lines out of protocol.
func (r *Recording) ProtocolErrors() int64 { return r.protocolErrors.Load() }

// RefusedConnections counts the connections refused at the limit of
// connections open at once.
func (r *Recording) RefusedConnections() int64 { return r.refused.Load() }

// ShedConnections counts the connections no longer recorded because the
// unfinished lines of all of them reached the budget.
func (r *Recording) ShedConnections() int64 { return r.shed.Load() }

// DiscardedSpans counts the spans read after their connection's fault.
func (r *Recording) DiscardedSpans() int64 { return r.discarded.Load() }

// DroppedAxes counts the axis values of spans dropped as undeclared.
func (r *Recording) DroppedAxes() int64 { return r.droppedAxes.Load() }

// addAxes adds the axes of a recorder stream not seen before; an axis
// already known by name keeps its first description.
func (r *Recording) addAxes(infos []ndjson.AxisInfo) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range infos {
		if a.Name == "wall" || r.hasAxis(a.Name) {
			continue
		}
		if len(r.axes) == 64 {
			return fmt.Errorf("more than 64 axes")
		}
		r.axes = append(r.axes, clipInfo(a))
	}
	return nil
}

func (r *Recording) hasAxis(name string) bool {
	for _, a := range r.axes {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Axes are the axes besides wall time that recorder streams brought.
func (r *Recording) Axes() []ndjson.AxisInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ndjson.AxisInfo(nil), r.axes...)
}

// Statuses are the live display's rows, one per benchmark.
func (r *Recording) Statuses() []Status {
	var buf []int64
	var out []Status
	for _, b := range r.Benches() {
		var s Status
		s, buf = b.Status(buf)
		out = append(out, s)
	}
	return out
}

// clipInfo clips the texts of an axis declaration to MaxText bytes.
func clipInfo(a ndjson.AxisInfo) ndjson.AxisInfo {
	for _, s := range []*string{&a.Name, &a.Unit, &a.Family, &a.Scope, &a.Attribution, &a.Direction,
		&a.Normalization, &a.Status, &a.Reason, &a.Semantics, &a.Comparison, &a.Source} {
		*s = clipString(*s)
	}
	return a
}

// clipString keeps at most MaxText bytes of s, cut at a character
// boundary, with "..." when it was cut.
func clipString(s string) string {
	if len(s) <= MaxText {
		return s
	}
	n := MaxText - 3
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
