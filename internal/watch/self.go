package watch

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// ProcSelf reads this process's CPU times from the kernel: getrusage for
// the process and its reaped children, the thread CPU clock for the
// calling thread (call it from the collecting thread).
type ProcSelf struct{}

func (ProcSelf) Process() (int64, error)  { return rusage(unix.RUSAGE_SELF) }
func (ProcSelf) Children() (int64, error) { return rusage(unix.RUSAGE_CHILDREN) }

func (ProcSelf) Thread() (int64, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, fmt.Errorf("thread cpu clock: %w", err)
	}
	return ts.Nano(), nil
}

func rusage(who int) (int64, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(who, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return unix.TimevalToNsec(ru.Utime) + unix.TimevalToNsec(ru.Stime), nil
}
