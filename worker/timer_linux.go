package worker

import (
	"syscall"
	"unsafe"
)

// clockSource names the clock behind time.Now's monotonic reading on
// Linux, the vDSO's clock_gettime(CLOCK_MONOTONIC), and its resolution
// from clock_getres.
func clockSource() (string, float64) {
	const clockMonotonic = 1
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETRES, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0)
	res := float64(ts.Nano())
	if errno != 0 || res <= 0 {
		return "clock_gettime(CLOCK_MONOTONIC)", observedStep()
	}
	return "clock_gettime(CLOCK_MONOTONIC)", res
}
