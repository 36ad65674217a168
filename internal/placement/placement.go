// Package placement pins the benchmarked commands to one logical CPU. The
// calling thread is bound with sched_setaffinity and every process it starts
// inherits the binding, so the measured work runs where the watch looks.
// Placement is never neutral: it fixes frequency and thermal behaviour and
// removes the load balancing a deployed workload would get.
package placement

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Result is what a placement request came to.
type Result struct {
	// Outcome is "strict" or "rejected".
	Outcome string
	CPU     int
	// Watched is the CPU and its SMT siblings, ascending: a sibling
	// saturated by another process slows the placed CPU while its own busy
	// share stays clean, so siblings join the watched set.
	Watched []int
	Reason  string
}

// Siblings returns cpu and its SMT siblings from
// devices/system/cpu/cpuN/topology/thread_siblings_list under sysfs, or
// just cpu when the topology is not readable.
func Siblings(sysfs fs.FS, cpu int) []int {
	data, err := fs.ReadFile(sysfs, fmt.Sprintf("devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu))
	if err != nil {
		return []int{cpu}
	}
	list, err := ParseList(strings.TrimSpace(string(data)))
	if err != nil || len(list) == 0 {
		return []int{cpu}
	}
	return list
}

// ParseList reads a kernel CPU list such as "0-3,8,10-11", ascending.
func ParseList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("cpu list %q: %w", s, err)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a {
				return nil, fmt.Errorf("cpu list %q: bad range %q", s, part)
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out, nil
}

// unsupported is the placement outcome where strict affinity has no backend:
// rejected, with the reason saying so. It is not an error; --require-strict
// decides whether the run goes on unplaced.
func unsupported(cpu int, goos string) Result {
	err := platform.CheckOn("sched_setaffinity", goos)
	return Result{CPU: cpu, Outcome: ndjson.PlacementRejected, Reason: err.Error()}
}

// Pair is the two CPUs of a duet run.
type Pair struct {
	CPUs [2]int
	// SMTSiblings is true when the two are hardware threads of one core.
	SMTSiblings bool
}

// PickPair chooses a duet's two CPUs among the allowed ones: want when
// given (two distinct allowed CPUs), else the first allowed CPU and the
// first other one on a different core (siblings lists a CPU with its SMT
// siblings), or, where every allowed CPU shares one core, its sibling.
// Fewer than two allowed CPUs is refused with the reason.
func PickPair(allowed, want []int, siblings func(int) []int) (Pair, error) {
	has := func(c int) bool { return slices.Contains(allowed, c) }
	pair := func(a, b int) Pair { return Pair{CPUs: [2]int{a, b}, SMTSiblings: slices.Contains(siblings(a), b)} }
	if len(want) > 0 {
		switch {
		case len(want) != 2 || want[0] == want[1]:
			return Pair{}, fmt.Errorf("a duet runs on two distinct CPUs; %d given (%s)", len(want), joinInts(want))
		case !has(want[0]) || !has(want[1]):
			return Pair{}, fmt.Errorf("cpus %s: this process may run only on %s", joinInts(want), joinInts(allowed))
		}
		return pair(want[0], want[1]), nil
	}
	if len(allowed) < 2 {
		return Pair{}, fmt.Errorf("a duet runs its two sides at once on two CPUs, and this process may run only on %s (its affinity or cpuset)", joinInts(allowed))
	}
	a := allowed[0]
	for _, b := range allowed[1:] {
		if !slices.Contains(siblings(a), b) {
			return pair(a, b), nil
		}
	}
	return pair(a, allowed[1]), nil
}

func joinInts(v []int) string {
	if len(v) == 0 {
		return "no CPU"
	}
	words := make([]string, len(v))
	for i, n := range v {
		words[i] = "cpu " + strconv.Itoa(n)
	}
	return strings.Join(words, ", ")
}
