package recorder

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
)

// Policy is how a benchmark's bounded store chooses the spans it keeps
// once more have finished than it holds.
type Policy uint8

const (
	// Reservoir keeps a uniform random sample of all observations
	// (Vitter's Algorithm R, seeded): every finished span has the same
	// chance, capacity/observed, of being retained.
	Reservoir Policy = iota
	// FirstN keeps the first spans to finish.
	FirstN
	// LatestN keeps the last spans to finish (a ring).
	LatestN
)

// String is the policy's name in the stream.
func (p Policy) String() string {
	switch p {
	case Reservoir:
		return "reservoir"
	case FirstN:
		return "first"
	case LatestN:
		return "latest"
	}
	return "invalid"
}

// Value statuses of a row's fields.
const (
	valCollected uint8 = iota
	valMigrated
	valProbeFailed
)

// row is one finished span as the store keeps it. vals holds every
// optional axis at its field index; status says whether each has a value.
type row struct {
	obs     int64
	start   int64
	wall    int64
	vals    [nFields]int64
	status  [nFields]uint8
	outcome Outcome
	// tid0 and tid1 are the OS threads of Begin and Finish (ThreadCPU).
	tid0, tid1 int32
}

// closedBit marks a benchmark's begun counter while the recording is not
// running: Begin sees it in the value its increment returns, so a span is
// counted as begun exactly when it is recorded.
const closedBit = int64(1) << 62

// Benchmark is one named kind of span and its bounded store. Its fields
// are allocated by Register, before Start.
type Benchmark struct {
	rec   *Recorder
	index int
	name  string
	// begun counts Begin calls while running; outside, closedBit is set
	// in it.
	begun atomic.Int64
	_     [56]byte // keep begun and mu on separate cache lines

	mu       sync.Mutex
	closed   bool
	policy   Policy
	rng      splitmix
	observed int64
	outcomes [nOutcomes]int64
	// queue holds finished spans for the stream's writer (Stream).
	queue ring
	// filed counts the spans offered to rows: every observed span, or
	// with Stream those that found the queue full.
	filed int64
	rows  []row
	// unfinished is set by Stop: spans begun and never finished.
	unfinished int64
}

// Name is the benchmark's name as registered.
func (b *Benchmark) Name() string { return b.name }

// record files a finished span under the store's lock: it numbers it,
// counts its outcome, and queues it for the stream or, when there is no
// room (or no stream), lets the policy keep or omit it.
func (b *Benchmark) record(p *row) {
	b.mu.Lock()
	if !b.closed {
		b.observed++
		p.obs = b.observed
		b.outcomes[p.outcome]++
		if !b.queue.push(p) {
			b.filed++
			if i := b.slot(b.filed); i >= 0 {
				b.rows[i] = *p
			}
		}
	}
	b.mu.Unlock()
}

// slot is where the policy puts the n-th span offered, or -1 to omit it.
func (b *Benchmark) slot(n int64) int {
	c := int64(len(b.rows))
	switch {
	case n <= c:
		return int(n - 1)
	case b.policy == FirstN:
		return -1
	case b.policy == LatestN:
		return int((n - 1) % c)
	}
	if j := int64(b.rng.below(uint64(n))); j < c {
		return int(j)
	}
	return -1
}

// close ends recording into the store and counts the spans begun and
// never finished.
func (b *Benchmark) close() {
	begun := b.begun.Or(closedBit) &^ closedBit
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	b.unfinished = max(begun-b.observed, 0)
}

// stored is the number of spans rows holds.
func (b *Benchmark) stored() int64 { return min(b.filed, int64(len(b.rows))) }

// retained is the rows kept, in observation order; call after close.
func (b *Benchmark) retained() []row {
	rows := slices.Clone(b.rows[:b.stored()])
	slices.SortFunc(rows, func(x, y row) int { return cmp.Compare(x.obs, y.obs) })
	return rows
}
