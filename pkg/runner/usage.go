package runner

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// Usage is what the children of one batch used, as wait4 reports it for
// each child alone (exact attribution: nothing of the harness is in it).
// Times and counts are sums over the batch's runs; MaxRSSKiB is the largest
// peak resident set of any run.
type Usage struct {
	Runs                int64
	UserNS              int64
	SystemNS            int64
	MaxRSSKiB           int64
	MinorFaults         int64
	MajorFaults         int64
	VoluntarySwitches   int64
	InvoluntarySwitches int64
	BlockIn             int64
	BlockOut            int64
	// ReadBytes and WriteBytes are the storage bytes of /proc/PID/io, read
	// after each child exited and before it was reaped; only with
	// Options.ReadIO. IOErr is why a run's counters could not be read.
	ReadBytes  int64
	WriteBytes int64
	IOErr      error
}

func (u *Usage) add(r *syscall.Rusage) {
	u.Runs++
	u.UserNS += r.Utime.Nano()
	u.SystemNS += r.Stime.Nano()
	u.MaxRSSKiB = max(u.MaxRSSKiB, r.Maxrss)
	u.MinorFaults += r.Minflt
	u.MajorFaults += r.Majflt
	u.VoluntarySwitches += r.Nvcsw
	u.InvoluntarySwitches += r.Nivcsw
	u.BlockIn += r.Inblock
	u.BlockOut += r.Oublock
}

// addIO adds the storage counters of the exited, not yet reaped, child pid.
func (u *Usage) addIO(pid int) {
	rb, wb, err := ReadIO(pid)
	if err != nil {
		u.IOErr = err
		return
	}
	u.ReadBytes += rb
	u.WriteBytes += wb
}

// ReadIO reads the storage counters read_bytes and write_bytes of process
// pid from /proc/PID/io.
func ReadIO(pid int) (read, write int64, err error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/io")
	if err != nil {
		return 0, 0, fmt.Errorf("read /proc/%d/io: %w", pid, err)
	}
	rb, okR := ioField(data, "read_bytes: ")
	wb, okW := ioField(data, "write_bytes: ")
	if !okR || !okW {
		return 0, 0, fmt.Errorf("/proc/%d/io has no read_bytes/write_bytes lines", pid)
	}
	return rb, wb, nil
}

// ioField finds "key value" at the start of a line of /proc/PID/io.
func ioField(data []byte, key string) (int64, bool) {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte(key)); ok {
			v, err := strconv.ParseInt(string(bytes.TrimSpace(rest)), 10, 64)
			return v, err == nil
		}
	}
	return 0, false
}
