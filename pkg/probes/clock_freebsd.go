package probes

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// SampleClock is the clock every sample is read from. FreeBSD has no
// CLOCK_MONOTONIC_RAW, so it is the runtime's CLOCK_MONOTONIC.
type SampleClock = Monotonic

// Backend names the clock in run records.
func (Monotonic) Backend() string { return "clock_gettime(CLOCK_MONOTONIC) via the Go runtime" }

// Resolution is the clock's nominal resolution (clock_getres) in nanoseconds.
func (Monotonic) Resolution() (float64, error) {
	var ts unix.Timespec
	_, _, errno := unix.Syscall(unix.SYS_CLOCK_GETRES, unix.CLOCK_MONOTONIC, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0, fmt.Errorf("clock_getres(CLOCK_MONOTONIC): %w", errno)
	}
	return float64(ts.Sec)*1e9 + float64(ts.Nsec), nil
}
