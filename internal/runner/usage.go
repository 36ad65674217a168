package runner

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"github.com/flybench/flybench/internal/platform"
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
	// PeakMethod is how MaxRSSKiB was measured (Options.Peak), and
	// PeakFloorKiB the floor it leaves: a MaxRSSKiB at or near it is only
	// an upper bound of the runs' peak (PeakBounded). PeakErr is why the
	// floor could not be read.
	PeakMethod   PeakMethod
	PeakFloorKiB int64
	PeakErr      error
	// ChargedPeakBytes is the largest charge above the batch's starting
	// level of the command's cgroup during the batch (Options.Charged),
	// measured with ChargedMethod ("cgroup_v1", "cgroup_v2"); ChargedErr
	// is why it was not.
	ChargedPeakBytes int64
	ChargedMethod    string
	ChargedErr       error
}

// peakFloorSlackKiB is how far above a floor read from this tool's own
// high-water mark (clear_refs, inherited) a peak must be to be a
// measurement: the kernel folds this tool's resident set at the child's
// exec into the child's peak, and that set moves by a few pages before
// the floor is read after the batch (a 2 MiB program read 28,960 KiB
// against a floor of 28,956 KiB).
const peakFloorSlackKiB = 256

// PeakBounded says whether MaxRSSKiB is only an upper bound of the runs'
// peak: at or below its method's floor, or for the methods whose floor is
// this tool's own high-water mark, within peakFloorSlackKiB above it.
func (u *Usage) PeakBounded() bool {
	if u.PeakMethod == PeakLauncher {
		return u.MaxRSSKiB <= u.PeakFloorKiB
	}
	return u.MaxRSSKiB <= u.PeakFloorKiB+peakFloorSlackKiB
}

func (u *Usage) add(r *syscall.Rusage) {
	u.Runs++
	u.UserNS += r.Utime.Nano()
	u.SystemNS += r.Stime.Nano()
	u.MaxRSSKiB = max(u.MaxRSSKiB, MaxRSSBytes(int64(r.Maxrss))>>10)
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
	if err := platform.Check("/proc/PID/io"); err != nil {
		return 0, 0, err
	}
	path := "/proc/" + strconv.Itoa(pid) + "/io"
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, fmt.Errorf("read %s: %w", path, err)
	}
	return ParseIO(path, data)
}

// ParseIO reads read_bytes and write_bytes from data, the text of the
// /proc/PID/io file at path. A missing or unparsable field is an error
// naming the file and the field.
func ParseIO(path string, data []byte) (read, write int64, err error) {
	rb, errR := ioField(path, data, "read_bytes")
	wb, errW := ioField(path, data, "write_bytes")
	if err := cmp.Or(errR, errW); err != nil {
		return 0, 0, err
	}
	return rb, wb, nil
}

// ioField finds "key: value" at the start of a line of /proc/PID/io.
func ioField(path string, data []byte, key string) (int64, error) {
	for line := range bytes.Lines(data) {
		if rest, ok := bytes.CutPrefix(line, []byte(key+": ")); ok {
			text := bytes.TrimSpace(rest)
			v, err := strconv.ParseUint(string(text), 10, 63)
			if err != nil {
				return 0, fmt.Errorf("%s: %s %q is not a count", path, key, text)
			}
			return int64(v), nil
		}
	}
	return 0, fmt.Errorf("%s: no %s field", path, key)
}
