package probes

// SampleClock is the clock every sample is read from. darwin has no
// CLOCK_MONOTONIC_RAW; the Go runtime's monotonic clock is
// mach_absolute_time, which counts at the hardware timebase.
type SampleClock = Monotonic

// Backend names the clock in run records, and says where its nominal
// resolution comes from.
func (Monotonic) Backend() string {
	return "mach_absolute_time via the Go runtime (nominal resolution observed: no clock_getres for it)"
}

// Resolution is the smallest positive step seen between adjacent reads (an
// upper bound on the resolution): the timebase that converts mach_absolute_time ticks to nanoseconds
// (1 ns on Intel, 125/3 ns on Apple silicon) is reachable only through
// libc, which this build does not call, so the step is observed instead.
func (c Monotonic) Resolution() (float64, error) {
	return observedResolution(c, 100000)
}
