package runner

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// A run's peak resident set is its wait4 ru_maxrss, but the kernel folds
// into it the high-water mark of the memory the child had before its exec:
// a child of this tool, started by vfork (as Go starts every child), had
// this tool's memory, so a run that stays below this tool's own peak reads
// as that peak. PeakMethod names how a command's runs avoid or bound that
// floor, and every rss_peak value carries the floor its method leaves.
type PeakMethod string

// Peak methods, best first.
const (
	// PeakLauncher starts every run through a launcher of a few hundred
	// bytes of machine code (launcherCode) that vforks and execs the
	// command and reports its wait status and rusage: the floor is the
	// launcher's few pages, measured once. Each run costs one more exec,
	// which its wall time includes.
	PeakLauncher PeakMethod = "launcher"
	// PeakClearRefs resets this tool's high-water mark to its current
	// resident set before every batch (/proc/self/clear_refs, 5) and reads
	// it after: the floor is this tool's resident set during the batch.
	PeakClearRefs PeakMethod = "clear_refs"
	// PeakInherited is ru_maxrss as it comes: the floor is this tool's
	// peak since it started.
	PeakInherited PeakMethod = "inherited"
)

// Peak is the method this process measures peak memory with, chosen once.
type Peak struct {
	Method PeakMethod
	// FloorKiB is the launcher's measured floor; the other methods read
	// theirs after every batch (Usage.PeakFloorKiB).
	FloorKiB int64
	// Passed says why each better method is not used, best first, such as
	// "launcher: unavailable: ...". (A cgroup's charge is not a resident
	// set: it is its own axis, mem_peak, memcg.go.)
	Passed []string

	launcher string // the launcher's executable path
}

// Note is the Passed reasons in one line.
func (p Peak) Note() string { return strings.Join(p.Passed, "; ") }

// ChoosePeak picks the best method that works here, by trying each: the
// launcher, then clear_refs, then ru_maxrss with the floor of this tool's
// lifetime peak.
var ChoosePeak = sync.OnceValue(func() Peak {
	var p Peak
	path, floor, err := installLauncher()
	if err == nil {
		p.Method, p.FloorKiB, p.launcher = PeakLauncher, floor, path
		return p
	}
	p.Passed = append(p.Passed, "launcher: "+err.Error())
	if err := resetHighWater(); err != nil {
		p.Passed = append(p.Passed, "clear_refs: "+err.Error())
		p.Method = PeakInherited
		return p
	}
	p.Method = PeakClearRefs
	return p
})

// launchReportSize is what the launcher writes: the wait status padded to
// 8 bytes, then struct rusage.
const launchReportSize = 8 + int(unsafe.Sizeof(syscall.Rusage{}))

// peakState is a Command's side of its peak method.
type peakState struct {
	Peak
	report *os.File // the launcher's report (a MemFile), nil for other methods
	fd     int      // its descriptor in the launcher, a single digit
	argv   []string // the launcher's arguments for the command's current argv
	buf    [launchReportSize]byte
}

// setupPeak prepares the command's peak method; with the launcher, the
// report file is the child's next descriptor.
func (c *Command) setupPeak(files []uintptr) ([]uintptr, error) {
	c.peak = &peakState{Peak: ChoosePeak()}
	if c.peak.Method != PeakLauncher {
		return files, nil
	}
	if len(files) > 9 {
		return nil, fmt.Errorf("launcher: report descriptor %d is not one digit", len(files))
	}
	f, err := MemFile("flybench-launch", "launcher report")
	if err != nil {
		return nil, fmt.Errorf("create launcher report: %w", err)
	}
	c.peak.report, c.peak.fd = f, len(files)
	c.setLaunchArgv()
	return append(files, f.Fd()), nil
}

// setLaunchArgv makes the launcher's arguments for the current argv.
func (c *Command) setLaunchArgv() {
	if c.peak == nil || c.peak.report == nil {
		return
	}
	c.peak.argv = append([]string{"flybench-launch", strconv.Itoa(c.peak.fd), c.path}, c.argv...)
}

// program is what start execs: the command, or the launcher with the
// command as its arguments.
func (c *Command) program() (string, []string) {
	if c.peak != nil && c.peak.report != nil {
		return c.peak.launcher, c.peak.argv
	}
	return c.path, c.argv
}

// peakBefore prepares a batch's floor: clear_refs resets this tool's
// high-water mark. It runs before the batch's first clock read.
func (c *Command) peakBefore() {
	if c.peak == nil {
		return
	}
	c.usage.PeakMethod = c.peak.Method
	if c.peak.Method == PeakClearRefs {
		c.usage.PeakErr = resetHighWater()
	}
}

// peakAfter records the batch's floor, after its last clock read.
func (c *Command) peakAfter() {
	if c.peak == nil || c.usage.PeakErr != nil {
		return
	}
	if c.peak.Method == PeakLauncher {
		c.usage.PeakFloorKiB = c.peak.FloorKiB
		return
	}
	c.usage.PeakFloorKiB, c.usage.PeakErr = highWaterKiB()
}

// launchReport replaces the launcher's status and rusage, just reaped,
// with its child's, which it reported. A launcher that exited otherwise
// than 0 (killed, or failed) keeps its own status, and an error says why
// when it was not killed.
func (c *Command) launchReport() error {
	if c.peak == nil || c.peak.report == nil {
		return nil
	}
	st := c.status
	if st.Signaled() {
		return nil // killed with its group: Kill or the time limit
	}
	if !st.Exited() || st.ExitStatus() != 0 {
		return fmt.Errorf("the peak-memory launcher failed (%s)", describeStatus(st))
	}
	n, err := c.peak.report.ReadAt(c.peak.buf[:], 0)
	if n != launchReportSize {
		return fmt.Errorf("read launcher report: %d of %d bytes: %v", n, launchReportSize, err)
	}
	c.status = syscall.WaitStatus(binary.NativeEndian.Uint32(c.peak.buf[:4]))
	c.rusage = *(*syscall.Rusage)(unsafe.Pointer(&c.peak.buf[8]))
	return nil
}

// rewindReport makes the launcher write its report at the start.
func (c *Command) rewindReport() error {
	if c.peak == nil || c.peak.report == nil {
		return nil
	}
	if _, err := c.peak.report.Seek(0, 0); err != nil {
		return fmt.Errorf("rewind launcher report: %w", err)
	}
	return nil
}

// describeStatus is a wait status as words.
func describeStatus(st syscall.WaitStatus) string {
	switch {
	case st.Exited():
		return fmt.Sprintf("exit status %d", st.ExitStatus())
	case st.Signaled():
		return "killed by " + st.Signal().String()
	}
	return fmt.Sprintf("wait status %#x", uint32(st))
}

// launcherELF wraps code in the smallest static ELF executable that runs
// it: one header, one read-and-execute segment holding the whole file.
func launcherELF(code []byte, machine uint16) []byte {
	const base, ehsize, phsize = 0x400000, 64, 56
	out := make([]byte, ehsize+phsize, ehsize+phsize+len(code))
	le := binary.LittleEndian
	copy(out, "\x7fELF\x02\x01\x01") // 64-bit, little-endian, version 1
	le.PutUint16(out[16:], 2)        // ET_EXEC
	le.PutUint16(out[18:], machine)
	le.PutUint32(out[20:], 1)                  // EV_CURRENT
	le.PutUint64(out[24:], base+ehsize+phsize) // entry
	le.PutUint64(out[32:], ehsize)             // program headers
	le.PutUint16(out[52:], ehsize)             // header size
	le.PutUint16(out[54:], phsize)             // program header size
	le.PutUint16(out[56:], 1)                  // one program header
	ph := out[ehsize:]
	le.PutUint32(ph[0:], 1)                                // PT_LOAD
	le.PutUint32(ph[4:], 5)                                // PF_R|PF_X
	le.PutUint64(ph[16:], base)                            // vaddr
	le.PutUint64(ph[24:], base)                            // paddr
	le.PutUint64(ph[32:], uint64(ehsize+phsize+len(code))) // filesz
	le.PutUint64(ph[40:], uint64(ehsize+phsize+len(code))) // memsz
	le.PutUint64(ph[48:], 0x1000)                          // align
	return append(out, code...)
}
