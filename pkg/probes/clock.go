// Package probes measures the machine a benchmark runs on: the clock every
// sample is read from, the host fingerprint recorded with every run, and
// (later) the per-axis probes that describe an operation beyond wall time.
//
// Everything that touches the kernel sits behind a small interface (Clock,
// fs.FS, an uname source) so the logic is tested on fakes and fixtures and
// the real thing is tested separately.
package probes

import "time"

// Clock is a monotonic nanosecond clock. Now must be cheap and never go
// backwards; only differences between two readings are meaningful.
type Clock interface {
	Now() int64
}

// Waiter is the clock of a loop that polls and sleeps between polls (the
// quiescence gate, the claim's wait): the time of day and a sleep, so
// that tests drive the loop with a fake one. It is the other face of the
// one clock: SystemWaiter reads the same monotonic time as Monotonic.
type Waiter interface {
	Now() time.Time
	Sleep(time.Duration)
}

// SystemWaiter is the real clock and sleep.
type SystemWaiter struct{}

func (SystemWaiter) Now() time.Time        { return time.Now() }
func (SystemWaiter) Sleep(d time.Duration) { time.Sleep(d) }

// Monotonic reads the platform's monotonic clock through the Go runtime. On
// Linux that is CLOCK_MONOTONIC through the vDSO: no system call, so a read
// costs tens of nanoseconds where MonotonicRaw costs a kernel entry (over a
// microsecond in some VMs). The clock never steps, but NTP may slew its
// rate by up to 500 ppm. On darwin the runtime reads mach_absolute_time,
// on FreeBSD CLOCK_MONOTONIC; there it is also the sample clock, since
// neither has CLOCK_MONOTONIC_RAW. Backend names what it reads.
type Monotonic struct{}

// monotonicBase anchors Monotonic readings; time.Since uses the runtime's
// monotonic reading of it, never the wall clock.
var monotonicBase = time.Now()

// Now returns nanoseconds since the process started using this package.
func (Monotonic) Now() int64 { return int64(time.Since(monotonicBase)) }
