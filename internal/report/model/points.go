package model

import (
	"container/heap"
	"slices"

	"github.com/flybench/flybench/pkg/ndjson"
)

// MaxPoints bounds the points kept of one run. A run with more samples
// keeps every sample of a seeded sample of its units, so its pairs and
// rounds stay whole, of about MaxPoints samples in all: the figures draw
// at most a few thousand points, and their quartiles and scales lose
// little against a memory that no longer grows with the run.
const MaxPoints = 20_000

// Point is what a figure draws of one sample: its case and unit, its
// place in the unit and in collection order, its process block, its time
// per operation and the run's telemetry around it.
type Point struct {
	Case, Unit, Pos, Seq int
	// Block and Attempt are the sample's process block and its attempt
	// (--invocations); Block is -1 for a sample taken outside blocks.
	Block, Attempt int
	OpNS           float64
	// Tele says the sample carried telemetry: CPUPct and RSSBytes.
	Tele     bool
	CPUPct   float64
	RSSBytes int64
	// n is the sample's place among the run's samples.
	n int
}

// pointOf is what a figure draws of a sample.
func pointOf(s *ndjson.Sample, n int) Point {
	p := Point{Case: s.Case, Unit: s.Unit, Pos: s.Pos, Seq: s.Seq, Block: -1, OpNS: s.OpNS, n: n}
	if s.Proc != nil {
		p.Block, p.Attempt = s.Proc.Block, s.Proc.Attempt
	}
	if s.Tele != nil {
		p.Tele, p.CPUPct, p.RSSBytes = true, s.Tele.CPUPct, s.Tele.RSSBytes
	}
	return p
}

// unitKey names a unit: its process block, attempt and index.
type unitKey struct{ block, attempt, unit int }

// unitPoints are the points of one kept unit and its key's hash.
type unitPoints struct {
	key    unitKey
	hash   uint64
	points []Point
}

// pointSampler keeps the points of the units whose keys hash lowest under
// the run's seed (a bottom-k sample): a uniform sample of at most k units,
// the same for the same stream. A unit once left out stays out, since the
// bar to enter only falls, so every kept unit has all its samples.
type pointSampler struct {
	seed    uint64
	k       int
	kept    map[unitKey]*unitPoints
	top     unitHeap // the kept units, the highest hash first
	n       int      // samples seen
	thinned bool
}

func newPointSampler(r *ndjson.Run) *pointSampler {
	return &pointSampler{seed: r.Seed, k: max(1, MaxPoints/max(1, len(r.Cases))), kept: map[unitKey]*unitPoints{}}
}

// add keeps a sample's point if its unit is in the sample.
func (ps *pointSampler) add(s *ndjson.Sample) {
	p := pointOf(s, ps.n)
	ps.n++
	key := unitKey{block: p.Block, attempt: p.Attempt, unit: p.Unit}
	if u := ps.kept[key]; u != nil {
		u.points = append(u.points, p)
		return
	}
	h := mix(ps.seed ^ mix(uint64(key.unit)^mix(uint64(key.block)<<32^uint64(key.attempt))))
	if len(ps.top) == ps.k {
		if h >= ps.top[0].hash {
			ps.thinned = true
			return
		}
		out := heap.Pop(&ps.top).(*unitPoints)
		delete(ps.kept, out.key)
		ps.thinned = true
	}
	u := &unitPoints{key: key, hash: h, points: []Point{p}}
	ps.kept[key] = u
	heap.Push(&ps.top, u)
}

// points are the kept points in stream order.
func (ps *pointSampler) points() []Point {
	var all []Point
	for _, u := range ps.top {
		all = append(all, u.points...)
	}
	slices.SortFunc(all, func(a, b Point) int { return a.n - b.n })
	return all
}

// mix is SplitMix64's finalizer: a seeded hash that spreads unit keys
// uniformly.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// unitHeap is a max-heap of kept units by hash (container/heap).
type unitHeap []*unitPoints

func (h unitHeap) Len() int           { return len(h) }
func (h unitHeap) Less(i, j int) bool { return h[i].hash > h[j].hash }
func (h unitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *unitHeap) Push(x any)        { *h = append(*h, x.(*unitPoints)) }
func (h *unitHeap) Pop() any {
	old := *h
	u := old[len(old)-1]
	*h = old[:len(old)-1]
	return u
}
