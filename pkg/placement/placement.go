// Package placement pins the benchmarked commands to one logical CPU. The
// calling thread is bound with sched_setaffinity and every process it starts
// inherits the binding, so the measured work runs where the watch looks.
// Placement is never neutral: it fixes frequency and thermal behaviour and
// removes the load balancing a deployed workload would get.
package placement

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
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

// Pin binds the calling OS thread (which must stay locked to its goroutine)
// to cpu. A refusal is reported in the Result, not as an error: the caller
// decides whether a rejected placement is fatal (--require-strict).
func Pin(cpu int, sysfs fs.FS) Result {
	r := Result{CPU: cpu, Outcome: "rejected"}
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		r.Reason = fmt.Sprintf("read the allowed CPUs: %v", err)
		return r
	}
	if cpu < 0 || cpu >= len(allowed)*64 || !allowed.IsSet(cpu) {
		r.Reason = fmt.Sprintf("cpu %d is not among the CPUs this process may use (%s)", cpu, setString(&allowed))
		return r
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		r.Reason = fmt.Sprintf("sched_setaffinity(cpu %d): %v", cpu, err)
		return r
	}
	r.Outcome, r.Watched = "strict", Siblings(sysfs, cpu)
	return r
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

func setString(s *unix.CPUSet) string {
	var cpus []string
	for c := 0; c < len(s)*64; c++ {
		if s.IsSet(c) {
			cpus = append(cpus, strconv.Itoa(c))
		}
	}
	return strings.Join(cpus, ",")
}

// PinProcess binds every thread of another process (a long-lived worker)
// to cpu; threads it starts later inherit the binding from their creator.
func PinProcess(pid, cpu int, sysfs fs.FS) Result {
	r := Result{CPU: cpu, Outcome: "rejected"}
	tids, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		r.Reason = fmt.Sprintf("list the threads of pid %d: %v", pid, err)
		return r
	}
	var set unix.CPUSet
	set.Set(cpu)
	for _, t := range tids {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			r.Reason = fmt.Sprintf("sched_setaffinity(thread %d of pid %d, cpu %d): %v", tid, pid, cpu, err)
			return r
		}
	}
	r.Outcome, r.Watched = "strict", Siblings(sysfs, cpu)
	return r
}
