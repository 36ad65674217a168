// Package probes measures the machine a benchmark runs on: the clock every
// sample is read from, the host fingerprint recorded with every run, and
// (later) the per-axis probes that describe an operation beyond wall time.
//
// Everything that touches the kernel sits behind a small interface (Clock,
// fs.FS, an uname source) so the logic is tested on fakes and fixtures and
// the real thing is tested separately.
package probes

import (
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Clock is a monotonic nanosecond clock. Now must be cheap and never go
// backwards; only differences between two readings are meaningful.
type Clock interface {
	Now() int64
}

// MonotonicRaw reads CLOCK_MONOTONIC_RAW: a hardware-rate clock that NTP
// neither steps nor slews, so an interval is never stretched by a frequency
// correction made while it was being timed.
//
// Go cannot reach the vDSO for this clock id, so every read is a real
// clock_gettime system call. It is issued with RawSyscall, which skips the
// scheduler hand-off of unix.ClockGettime: the call never blocks, and the
// hand-off is pure read cost.
type MonotonicRaw struct{}

// Now returns the clock reading in nanoseconds.
func (MonotonicRaw) Now() int64 {
	var ts unix.Timespec
	unix.RawSyscall(unix.SYS_CLOCK_GETTIME, unix.CLOCK_MONOTONIC_RAW, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Sec*1e9 + ts.Nsec
}

// Backend names the clock in run records.
func (MonotonicRaw) Backend() string { return "clock_gettime(CLOCK_MONOTONIC_RAW)" }

// Resolution is the clock's nominal resolution (clock_getres) in nanoseconds.
func (MonotonicRaw) Resolution() (float64, error) {
	return resolution(unix.CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW")
}

// Monotonic reads CLOCK_MONOTONIC through the Go runtime, which uses the
// vDSO: no system call, so a read costs tens of nanoseconds where
// MonotonicRaw costs a kernel entry (over a microsecond in some VMs). The
// clock never steps, but NTP may slew its rate by up to 500 ppm.
type Monotonic struct{}

// monotonicBase anchors Monotonic readings; time.Since uses the runtime's
// monotonic reading of it, never the wall clock.
var monotonicBase = time.Now()

// Now returns nanoseconds since the process started using this package.
func (Monotonic) Now() int64 { return int64(time.Since(monotonicBase)) }

// Backend names the clock in run records.
func (Monotonic) Backend() string { return "clock_gettime(CLOCK_MONOTONIC) via vDSO" }

// Resolution is the clock's nominal resolution (clock_getres) in nanoseconds.
func (Monotonic) Resolution() (float64, error) {
	return resolution(unix.CLOCK_MONOTONIC, "CLOCK_MONOTONIC")
}

func resolution(id int32, name string) (float64, error) {
	var ts unix.Timespec
	if err := unix.ClockGetres(id, &ts); err != nil {
		return 0, fmt.Errorf("clock_getres(%s): %w", name, err)
	}
	return float64(ts.Sec)*1e9 + float64(ts.Nsec), nil
}
