// Package placement pins the benchmarked commands to one logical CPU. The
// calling thread is bound with sched_setaffinity and every process it starts
// inherits the binding, so the measured work runs where the watch looks.
// Placement is never neutral: it fixes frequency and thermal behaviour and
// removes the load balancing a deployed workload would get.
package placement

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/platform"
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
	return Result{CPU: cpu, Outcome: "rejected", Reason: err.Error()}
}
