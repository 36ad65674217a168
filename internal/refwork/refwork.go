// Package refwork holds the built-in reference workloads of --reference: a
// fixed amount of work that the other cases' times are divided by, so that
// a score is in units of "this machine's speed at this kind of work". Each
// workload is a pure function of its operation count: the same work on
// every machine, whatever it costs there.
package refwork

import (
	"fmt"
	"strings"
)

// The amount of work of one operation of each workload. They are part of
// the meaning of every normalized score recorded with them: changing one
// makes old scores incomparable with new ones.
const (
	// IntSteps is the number of xorshift steps of one int operation
	// (about 3 ms on this project's 2-vCPU machines).
	IntSteps = 1_500_000
	// MemBytes is the size of the buffer one mem operation reads from
	// end to end (64 MiB: larger than the last-level cache of common
	// machines, so every pass streams from memory; about 4 ms on this
	// project's machines when quiet, 8 ms under load).
	MemBytes = 64 << 20
)

// Kinds are the workload names, in the order they are documented.
var Kinds = []string{"int", "mem"}

// Work is what a run of a workload did: its operations, the units of
// work they consisted of (xorshift steps or bytes read) and a checksum
// that keeps the compiler from dropping the loop.
type Work struct {
	Ops      int64
	Units    int64
	Checksum uint64
}

// Workload is one prepared reference workload.
type Workload interface {
	// Run performs n operations.
	Run(n int64) Work
}

// New prepares the workload named kind. The mem workload allocates and
// fills its buffer here, so that Run streams memory already mapped.
func New(kind string) (Workload, error) {
	switch kind {
	case "int":
		return intWork{}, nil
	case "mem":
		return newMemWork(MemBytes), nil
	}
	return nil, fmt.Errorf("no reference workload %q: use %s", kind, Describe())
}

// UnitName names the units of work of the workload kind.
func UnitName(kind string) string {
	if kind == "mem" {
		return "bytes read"
	}
	return "xorshift steps"
}

// Describe lists the workloads for a usage message.
func Describe() string {
	return strings.Join(Kinds, " or ")
}

// intWork is a fixed integer loop: xorshift steps on one register, no
// memory traffic and no allocation.
type intWork struct{}

func (intWork) Run(n int64) Work {
	x := uint64(0x9e3779b97f4a7c15)
	for range n {
		x = xorshift(x, IntSteps)
	}
	return Work{Ops: n, Units: n * IntSteps, Checksum: x}
}

// xorshift advances Marsaglia's 64-bit xorshift generator steps times.
func xorshift(x uint64, steps int) uint64 {
	for range steps {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// memWork reads a buffer larger than the caches from end to end per
// operation: a sequential stream of fixed size.
type memWork struct {
	buf []uint64
}

func newMemWork(bytes int) *memWork {
	buf := make([]uint64, bytes/8)
	for i := range buf {
		buf[i] = uint64(i) * 0x9e3779b97f4a7c15
	}
	return &memWork{buf: buf}
}

func (m *memWork) Run(n int64) Work {
	var sum uint64
	for range n {
		sum += stream(m.buf)
	}
	return Work{Ops: n, Units: n * int64(len(m.buf)) * 8, Checksum: sum}
}

// stream sums the buffer in order.
func stream(buf []uint64) uint64 {
	var s uint64
	for _, v := range buf {
		s += v
	}
	return s
}
