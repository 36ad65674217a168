package observe

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/pkg/runner"
)

// ProcSnapshot is a long-lived process's cumulative counters, read from
// /proc outside timed regions.
type ProcSnapshot struct {
	CPUNS               int64 // user+system of every thread (the process CPU-time clock)
	MinorFaults         int64
	MajorFaults         int64
	VoluntarySwitches   int64 // summed over its threads
	InvoluntarySwitches int64
	RSSBytes            int64 // VmRSS
	PeakRSSBytes        int64 // VmHWM (since start, or since ResetPeak)
	ReadBytes           int64
	WriteBytes          int64
	Err                 error // the first read that failed
	IOErr               error
}

// ProcReader reads a process's counters. It is an interface so tests use
// fixtures; PidReader is the real one.
type ProcReader interface {
	Read(pid int) ProcSnapshot
	// ResetPeak makes VmHWM restart from the current RSS (clear_refs 5),
	// so the next reading's peak belongs to what ran in between.
	ResetPeak(pid int) error
}

// PidReader reads /proc/PID.
type PidReader struct{}

// Read takes every counter it can; failures are kept in Err and IOErr.
func (PidReader) Read(pid int) ProcSnapshot {
	var s ProcSnapshot
	s.CPUNS, s.Err = processCPU(pid)
	keep := func(err error) {
		if s.Err == nil {
			s.Err = err
		}
	}
	keep(statFaults(pid, &s))
	keep(statusMemory(pid, &s))
	keep(threadSwitches(pid, &s))
	s.IOErr = procIO(pid, &s)
	return s
}

// ResetPeak writes 5 to /proc/PID/clear_refs.
func (PidReader) ResetPeak(pid int) error {
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

// ProcessCPU is pid's CPU time so far in ns (0 if it cannot be read).
func ProcessCPU(pid int) int64 {
	ns, _ := processCPU(pid)
	return ns
}

// ReadProcessCPU is pid's CPU time so far in ns, or why it cannot be read.
func ReadProcessCPU(pid int) (int64, error) { return processCPU(pid) }

// processCPU reads the process CPU-time clock of pid (CPUCLOCK_SCHED,
// nanosecond precision, all threads).
func processCPU(pid int) (int64, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(int32((^pid)<<3|2), &ts); err != nil {
		return 0, fmt.Errorf("cpu clock of pid %d: %w", pid, err)
	}
	return ts.Nano(), nil
}

// statFaults reads minflt and majflt (fields 10 and 12) of /proc/PID/stat,
// which sum every thread.
func statFaults(pid int, s *ProcSnapshot) error {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return fmt.Errorf("/proc/%d/stat: no command field", pid)
	}
	f := bytes.Fields(data[i+1:]) // f[0] is field 3 (state)
	if len(f) < 10 {
		return fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	s.MinorFaults, _ = strconv.ParseInt(string(f[7]), 10, 64)
	s.MajorFaults, _ = strconv.ParseInt(string(f[9]), 10, 64)
	return nil
}

// statusMemory reads VmRSS and VmHWM.
func statusMemory(pid int, s *ProcSnapshot) error {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return err
	}
	s.RSSBytes = kibField(data, "VmRSS:") << 10
	s.PeakRSSBytes = kibField(data, "VmHWM:") << 10
	return nil
}

// threadSwitches sums the context switches of every thread.
func threadSwitches(pid int, s *ProcSnapshot) error {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		return fmt.Errorf("/proc/%d/task: no threads", pid)
	}
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that just exited
		}
		s.VoluntarySwitches += kibField(data, "voluntary_ctxt_switches:")
		s.InvoluntarySwitches += kibField(data, "nonvoluntary_ctxt_switches:")
	}
	return nil
}

func procIO(pid int, s *ProcSnapshot) error {
	rb, wb, err := runner.ReadIO(pid)
	if err != nil {
		return err
	}
	s.ReadBytes, s.WriteBytes = rb, wb
	return nil
}

// kibField reads the first number after key at the start of a line.
func kibField(data []byte, key string) int64 {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte(key)); ok {
			f := bytes.Fields(rest)
			if len(f) > 0 {
				v, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return v
			}
		}
	}
	return 0
}
