package recorder

import (
	"syscall"
	"unsafe"
)

// threadReason is empty: Linux reads thread CPU time.
const threadReason = ""

// gettid is the calling OS thread's id.
func gettid() int32 { return int32(syscall.Gettid()) }

// threadCPU reads the CPU time of thread tid of this process, in
// nanoseconds, through its per-thread CPU clock: the clock id the kernel
// derives from a thread id (MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)).
// Reading a named thread's clock, rather than CLOCK_THREAD_CPUTIME_ID,
// keeps the value that thread's even when the goroutine moved to another
// thread between the gettid and the clock read.
func threadCPU(tid int32) (int64, bool) {
	const cpuclockSched, cpuclockPerThread = 2, 4
	clock := int64(^tid)<<3 | cpuclockPerThread | cpuclockSched
	var ts syscall.Timespec
	_, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano(), errno == 0
}
