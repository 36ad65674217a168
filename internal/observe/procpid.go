package observe

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/runner"
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
	// FieldErr holds, by /proc field name (Field constants), why a counter
	// was not read: its field was missing or not a number. Such a counter
	// is 0 here and must not be used.
	FieldErr map[string]error
}

// The /proc fields a snapshot reads, as FieldErr names them.
const (
	FieldMinorFaults         = "minflt"
	FieldMajorFaults         = "majflt"
	FieldRSS                 = "VmRSS"
	FieldPeakRSS             = "VmHWM"
	FieldVoluntarySwitches   = "voluntary_ctxt_switches"
	FieldInvoluntarySwitches = "nonvoluntary_ctxt_switches"
)

// fieldErr records why field was not read; the first reason is kept.
func (s *ProcSnapshot) fieldErr(field string, err error) {
	if err == nil {
		return
	}
	if s.FieldErr == nil {
		s.FieldErr = map[string]error{}
	}
	if s.FieldErr[field] == nil {
		s.FieldErr[field] = err
	}
}

// ProcReader reads a process's counters. It is an interface so tests use
// fixtures; PidReader is the real one.
type ProcReader interface {
	Read(pid int) ProcSnapshot
	// ResetPeak makes VmHWM restart from the current RSS (clear_refs 5),
	// so the next reading's peak belongs to what ran in between.
	ResetPeak(pid int) error
}

// PidReader reads /proc/PID. The zero value reads the real /proc and the
// real CPU-time clock.
type PidReader struct {
	// Proc, when set, stands in for /proc: tests pass fixture files.
	Proc fs.FS
	// CPU, when set, stands in for the process CPU-time clock.
	CPU func(pid int) (int64, error)
}

// Read takes every counter it can; failures are kept in Err, IOErr and
// FieldErr.
func (r PidReader) Read(pid int) ProcSnapshot {
	var s ProcSnapshot
	s.CPUNS, s.Err = r.cpu(pid)
	keep := func(err error) {
		if s.Err == nil {
			s.Err = err
		}
	}
	keep(r.statFaults(pid, &s))
	keep(r.statusMemory(pid, &s))
	keep(r.threadSwitches(pid, &s))
	s.IOErr = r.procIO(pid, &s)
	return s
}

// ResetPeak writes 5 to /proc/PID/clear_refs (nothing with fixture files).
func (r PidReader) ResetPeak(pid int) error {
	if r.Proc != nil {
		return nil
	}
	return os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
}

func (r PidReader) cpu(pid int) (int64, error) {
	if r.CPU != nil {
		return r.CPU(pid)
	}
	return processCPU(pid)
}

// readFile reads path, a /proc path, from Proc when it is set.
func (r PidReader) readFile(path string) ([]byte, error) {
	if r.Proc == nil {
		return os.ReadFile(path)
	}
	return fs.ReadFile(r.Proc, strings.TrimPrefix(path, "/proc/"))
}

// glob matches pattern, a /proc pattern, in Proc when it is set.
func (r PidReader) glob(pattern string) ([]string, error) {
	if r.Proc == nil {
		return filepath.Glob(pattern)
	}
	names, err := fs.Glob(r.Proc, strings.TrimPrefix(pattern, "/proc/"))
	for i, n := range names {
		names[i] = "/proc/" + n
	}
	return names, err
}

// ReadProcessCPU is pid's CPU time so far in ns, or why it cannot be read.
func ReadProcessCPU(pid int) (int64, error) { return processCPU(pid) }

// processCPU reads the process CPU-time clock of pid (CPUCLOCK_SCHED,
// nanosecond precision, all threads), a clock id only Linux has.
func processCPU(pid int) (int64, error) {
	if err := platform.Check("the CPU-time clock of another process"); err != nil {
		return 0, err
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(int32((^pid)<<3|2), &ts); err != nil {
		return 0, fmt.Errorf("cpu clock of pid %d: %w", pid, err)
	}
	return ts.Nano(), nil
}

// statFaults reads minflt and majflt (fields 10 and 12) of /proc/PID/stat,
// which sum every thread.
func (r PidReader) statFaults(pid int, s *ProcSnapshot) error {
	path := fmt.Sprintf("/proc/%d/stat", pid)
	data, err := r.readFile(path)
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
	var ferr error
	s.MinorFaults, ferr = countField(path, FieldMinorFaults+" (field 10)", f[7])
	s.fieldErr(FieldMinorFaults, ferr)
	s.MajorFaults, ferr = countField(path, FieldMajorFaults+" (field 12)", f[9])
	s.fieldErr(FieldMajorFaults, ferr)
	return nil
}

// statusMemory reads VmRSS and VmHWM.
func (r PidReader) statusMemory(pid int, s *ProcSnapshot) error {
	path := fmt.Sprintf("/proc/%d/status", pid)
	data, err := r.readFile(path)
	if err != nil {
		return err
	}
	rss, err := statusField(path, data, FieldRSS)
	s.RSSBytes = rss << 10
	s.fieldErr(FieldRSS, err)
	peak, err := statusField(path, data, FieldPeakRSS)
	s.PeakRSSBytes = peak << 10
	s.fieldErr(FieldPeakRSS, err)
	return nil
}

// threadSwitches sums the context switches of every thread.
func (r PidReader) threadSwitches(pid int, s *ProcSnapshot) error {
	tasks, err := r.glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		return fmt.Errorf("/proc/%d/task: no threads", pid)
	}
	for _, t := range tasks {
		data, err := r.readFile(t)
		if err != nil {
			continue // a thread that just exited
		}
		v, err := statusField(t, data, FieldVoluntarySwitches)
		s.VoluntarySwitches += v
		s.fieldErr(FieldVoluntarySwitches, err)
		v, err = statusField(t, data, FieldInvoluntarySwitches)
		s.InvoluntarySwitches += v
		s.fieldErr(FieldInvoluntarySwitches, err)
	}
	return nil
}

func (r PidReader) procIO(pid int, s *ProcSnapshot) error {
	var rb, wb int64
	var err error
	if r.Proc == nil {
		rb, wb, err = runner.ReadIO(pid)
	} else {
		path := fmt.Sprintf("/proc/%d/io", pid)
		var data []byte
		if data, err = r.readFile(path); err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		rb, wb, err = runner.ParseIO(path, data)
	}
	if err != nil {
		return err
	}
	s.ReadBytes, s.WriteBytes = rb, wb
	return nil
}

// statusField reads the number after "field:" at the start of a line of
// the /proc status file at path. A missing line or a value that is not a
// count is an error naming the file and the field, never a 0.
func statusField(path string, data []byte, field string) (int64, error) {
	key := []byte(field + ":")
	for line := range bytes.Lines(data) {
		if rest, ok := bytes.CutPrefix(line, key); ok {
			f := bytes.Fields(rest)
			if len(f) == 0 {
				return 0, fmt.Errorf("%s: %s has no value", path, field)
			}
			return countField(path, field, f[0])
		}
	}
	return 0, fmt.Errorf("%s: no %s field", path, field)
}

// countField parses one non-negative counter of the /proc file at path.
func countField(path, field string, text []byte) (int64, error) {
	v, err := strconv.ParseUint(string(text), 10, 63)
	if err != nil {
		return 0, fmt.Errorf("%s: %s %q is not a count", path, field, text)
	}
	return int64(v), nil
}
