package main

import (
	"math/rand/v2"
	"time"
)

// The kinds of interference a burst can be.
const (
	KindCPU     = "cpu"     // integer busy loop
	KindCache   = "cache"   // writes through a buffer the size of the last-level cache
	KindMemBW   = "membw"   // streaming copies between two large buffers
	KindIO      = "io"      // fsynced writes to a file, read back
	KindOversub = "oversub" // more runnable threads than CPUs
)

// Kinds is every kind, in the order the schedule draws them from.
var Kinds = []string{KindCPU, KindCache, KindMemBW, KindIO, KindOversub}

// The scopes of a burst: one pinned CPU, or every CPU.
const (
	ScopeOne = "one-cpu"
	ScopeAll = "all-cpus"
)

// Bounds of the schedule's random lengths, sizes and thread counts.
const (
	MinBurst    = 300 * time.Millisecond
	MaxBurst    = 3 * time.Second
	MinGap      = 200 * time.Millisecond
	MaxGap      = 3 * time.Second
	MinChunk    = 4 << 20 // io: bytes per write
	MaxChunk    = 8 << 20
	MinOversubX = 2 // oversub: threads per CPU
	MaxOversubX = 4
)

// Burst is one interval of interference, relative to the schedule's start.
type Burst struct {
	Kind     string
	Scope    string
	Threads  int
	CPU      int // ScopeOne: the index of the CPU, 0 to cpus-1, among the allowed ones; -1 for ScopeAll
	Chunk    int // KindIO: bytes per write; 0 otherwise
	Offset   time.Duration
	Duration time.Duration
}

// Schedule is the seed's bursts over total on a machine of cpus CPUs: a
// quiet gap, a burst, a gap, and so on; a burst that would run past total
// is cut short there. It depends on nothing but its arguments, so a seed
// names one schedule, and a longer schedule of a seed begins with the
// shorter one.
func Schedule(seed uint64, total time.Duration, cpus int) []Burst {
	rng := rand.New(rand.NewPCG(seed, 0x1f2e3d4c5b6a7988))
	cpus = max(cpus, 1)
	var out []Burst
	at := time.Duration(0)
	for {
		at += between(rng, MinGap, MaxGap)
		b := drawBurst(rng, cpus)
		if at >= total {
			return out
		}
		b.Offset, b.Duration = at, min(b.Duration, total-at)
		out = append(out, b)
		at += b.Duration
	}
}

// drawBurst draws one burst's length, kind, scope and threads.
func drawBurst(rng *rand.Rand, cpus int) Burst {
	b := Burst{
		Duration: between(rng, MinBurst, MaxBurst),
		Kind:     Kinds[rng.IntN(len(Kinds))],
		Scope:    ScopeAll,
		Threads:  cpus,
		CPU:      -1,
	}
	if rng.IntN(2) == 0 {
		b.Scope, b.Threads, b.CPU = ScopeOne, 1, rng.IntN(cpus)
	}
	switch b.Kind {
	case KindOversub:
		// Its own thread count whatever the scope: one-cpu piles them all
		// on the pinned CPU, all-cpus spreads them over every CPU.
		b.Threads = MinOversubX*cpus + rng.IntN((MaxOversubX-MinOversubX)*cpus+1)
	case KindIO:
		b.Chunk = MinChunk + rng.IntN(MaxChunk-MinChunk+1)
	}
	return b
}

// between is a uniform random duration in [lo, hi].
func between(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
}
