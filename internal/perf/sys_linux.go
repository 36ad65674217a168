//go:build linux

package perf

import (
	"errors"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// realSys is the kernel. tid 0 is the calling thread; otherwise the
// counters are opened on that thread of another process.
type realSys struct{ tid int }

func (r realSys) open(a attr, groupFd int) (int, error) {
	ua := unix.PerfEventAttr{
		Type:        a.Type,
		Size:        uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
		Config:      a.Config,
		Read_format: a.ReadFormat,
		Bits:        bits(a),
	}
	// pid 0 (or a thread id), cpu -1: that thread on whatever CPU it runs.
	return unix.PerfEventOpen(&ua, r.tid, -1, groupFd, unix.PERF_FLAG_FD_CLOEXEC)
}

func bits(a attr) uint64 {
	var b uint64
	for _, f := range []struct {
		on  bool
		bit uint64
	}{{a.ExcludeKernel, unix.PerfBitExcludeKernel}, {a.ExcludeHV, unix.PerfBitExcludeHv}, {a.Inherit, unix.PerfBitInherit}} {
		if f.on {
			b |= f.bit
		}
	}
	return b
}

func (realSys) id(fd int) (uint64, error) { return unix.IoctlGetUint64(fd, unix.PERF_EVENT_IOC_ID) }

func (realSys) read(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Read(fd, buf)
		if !errors.Is(err, unix.EINTR) {
			return n, err
		}
	}
}

func (realSys) close(fd int) error { return unix.Close(fd) }

func (realSys) exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func (realSys) readFile(path string) ([]byte, error) { return os.ReadFile(path) }

func (realSys) reschedule() {
	// Any sleep blocks the thread: the timer slack alone (50µs for normal
	// tasks) keeps it from expiring before schedule() is reached. But a
	// signal pending when the sleep starts (the Go runtime's preemption
	// signal, say) ends it without a switch, and the first child then
	// loses its counts again: so sleep until the thread's own count of
	// context switches says it was switched out.
	for range 100 {
		before, ok := threadSwitches()
		unix.Nanosleep(&unix.Timespec{Nsec: 10_000}, nil)
		after, _ := threadSwitches()
		if !ok || after > before {
			return
		}
	}
}

// threadSwitches is the calling thread's count of context switches,
// voluntary and not.
func threadSwitches() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return ru.Nvcsw + ru.Nivcsw, true
}
