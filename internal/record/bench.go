package record

import (
	"sync"
	"sync/atomic"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Bench is one benchmark (a named kind of span) of a recording.
type Bench struct {
	Index int
	Name  string
	live  atomic.Int64 // begun and not yet ended or abandoned
	// begins says a begin line named the benchmark: only then is live
	// known (span lines and recorder streams report finished spans).
	begins atomic.Bool

	mu         sync.Mutex
	observed   int64
	omitted    int64
	unfinished int64
	outcomes   [numOutcomes]int64
	store      *store
	win        window
}

// finish counts a finished span, numbers it and offers it to the store.
func (b *Bench) finish(row Row) {
	b.mu.Lock()
	b.observed++
	row.Obs = b.observed
	b.outcomes[row.Outcome]++
	if b.store.add(row) {
		b.omitted++
	}
	if row.WallNS >= 0 {
		b.win.add(row.WallNS)
	}
	b.mu.Unlock()
}

// abandon counts n begun spans that will never end.
func (b *Bench) abandon(n int64) {
	b.live.Add(-n)
	b.mu.Lock()
	b.unfinished += n
	b.mu.Unlock()
}

// upstream adds what a recorder stream's own tally says it observed
// beyond the spans it sent: observations its retention omitted (with
// their outcomes) and spans it never finished.
func (b *Bench) upstream(omitted int64, outcomes [numOutcomes]int64, unfinished int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.observed += omitted
	b.omitted += omitted
	b.unfinished += unfinished
	for i, n := range outcomes {
		b.outcomes[i] += n
	}
}

// Tally is the benchmark's counts so far.
func (b *Bench) Tally() ndjson.BenchmarkTally {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := ndjson.BenchmarkTally{
		Index: b.Index, Observed: b.observed, Retained: int64(len(b.store.rows)),
		Omitted: b.omitted, Unfinished: b.unfinished, Outcomes: map[string]int64{},
	}
	for i, n := range b.outcomes {
		t.Outcomes[Outcome(i).String()] = n
	}
	return t
}

// Rows are the retained spans by observation number.
func (b *Bench) Rows() []Row {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.store.sorted()
}

// Status is what the live display shows of a benchmark.
type Status struct {
	Name             string
	Done, Live, Errs int64
	// LiveKnown is false while only finished spans have been reported.
	LiveKnown   bool
	Median, P95 int64 // over the rolling window
	HasWindow   bool
}

// Status reads the benchmark's display row; buf is scratch space for the
// window, returned for reuse.
func (b *Bench) Status(buf []int64) (Status, []int64) {
	b.mu.Lock()
	s := Status{Name: b.Name, Done: b.observed, Errs: b.outcomes[Failure] + b.outcomes[Timeout]}
	buf = b.win.copyTo(buf[:0])
	b.mu.Unlock()
	s.Live, s.LiveKnown = b.live.Load(), b.begins.Load()
	s.Median, s.P95, s.HasWindow = Quantiles(buf)
	return s, buf
}
