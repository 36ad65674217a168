package placement

import (
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Pin binds the calling OS thread (which must stay locked to its goroutine)
// to cpu. A refusal is reported in the Result, not as an error: the caller
// decides whether a rejected placement is fatal (--require-strict).
func Pin(cpu int, sysfs fs.FS) Result {
	r := Result{CPU: cpu, Outcome: ndjson.PlacementRejected}
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
	r.Outcome, r.Watched = ndjson.PlacementStrict, Siblings(sysfs, cpu)
	return r
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
	r := Result{CPU: cpu, Outcome: ndjson.PlacementRejected}
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
	r.Outcome, r.Watched = ndjson.PlacementStrict, Siblings(sysfs, cpu)
	return r
}

// Allowed lists the CPUs this process may run on, ascending.
func Allowed() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("read the allowed CPUs: %w", err)
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}
