package probes

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// SampleClock is the clock every sample is read from: on Linux the raw
// hardware-rate clock, which NTP cannot slew.
type SampleClock = MonotonicRaw

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
