package record

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Policy is the retention chosen before the recording starts.
type Policy struct {
	Name     string // ndjson.RetainReservoir, RetainFirst or RetainLatest
	Capacity int    // spans kept per benchmark, at least 1
	Seed     uint64 // the reservoir's; each benchmark draws from its own stream
}

// The fields of Options and its Policy as their field errors name them.
const (
	FieldRetention = "record.Retention"
	FieldCapacity  = "record.Capacity"
	FieldSocket    = "record.Socket"
	FieldFIFO      = "record.FIFO"
	FieldRefresh   = "record.Refresh"
	FieldDuration  = "record.Duration"
)

// Check refuses an unknown policy or a capacity below 1 with a field
// error.
func (p Policy) Check() error {
	switch p.Name {
	case ndjson.RetainReservoir, ndjson.RetainFirst, ndjson.RetainLatest:
	default:
		return field.Errorf(FieldRetention, p.Name, "%s %q: use reservoir, first or latest", field.Name(FieldRetention), p.Name)
	}
	if p.Capacity < 1 {
		return field.Errorf(FieldCapacity, p.Capacity, "%s %d: keep at least 1 span per benchmark", field.Name(FieldCapacity), p.Capacity)
	}
	return nil
}

// Row is one finished span as kept. WallNS is -1 when the span has no
// wall time (an upstream span whose wall axis was not collected).
type Row struct {
	Obs     int64
	StartNS int64
	WallNS  int64
	Outcome Outcome
	Axes    map[string]ndjson.AxisValue
}

// store keeps at most cap rows of one benchmark by its policy. It is not
// safe for concurrent use: its benchmark's lock guards it.
type store struct {
	policy string
	cap    int
	rows   []Row
	next   int // latest: the slot the next row overwrites
	rng    *rand.Rand
}

func newStore(p Policy, index int) *store {
	s := &store{policy: p.Name, cap: p.Capacity}
	if p.Name == ndjson.RetainReservoir {
		s.rng = rand.New(rand.NewPCG(p.Seed, uint64(index)))
	}
	return s
}

// add offers the row of observation row.Obs (numbered from 1); it
// reports whether a row was dropped, the new one or an older one.
func (s *store) add(row Row) (dropped bool) {
	if len(s.rows) < s.cap {
		s.rows = append(s.rows, row)
		return false
	}
	switch s.policy {
	case ndjson.RetainLatest:
		s.rows[s.next] = row
		s.next = (s.next + 1) % s.cap
	case ndjson.RetainReservoir:
		// Algorithm R: observation n replaces a random slot with
		// probability cap/n, so every observation so far is kept with
		// the same probability.
		if j := s.rng.Int64N(row.Obs); j < int64(s.cap) {
			s.rows[j] = row
		}
	}
	return true
}

// sorted returns the kept rows by observation number, in a copy except
// under RetainFirst, whose rows are never replaced.
func (s *store) sorted() []Row {
	if s.policy == ndjson.RetainFirst {
		return s.rows[:len(s.rows):len(s.rows)]
	}
	out := slices.Clone(s.rows)
	slices.SortFunc(out, func(a, b Row) int { return cmp.Compare(a.Obs, b.Obs) })
	return out
}
