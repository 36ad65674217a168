// Package platform names what the tools use that exists only on Linux, and
// how its absence is reported elsewhere: the unsupported_platform status
// with a reason that names the facility and the platform, never a value.
//
// The tools build for darwin and FreeBSD too. There every Linux-only probe
// (perf_event_open, /proc, sysfs, sched_setaffinity, waitid with WNOWAIT,
// memfd, CLOCK_MONOTONIC_RAW) is either replaced by a portable equivalent
// or reported through this package. The decisions take the platform as an
// argument, so tests on Linux can ask what another platform would do.
package platform

import "runtime"

// GOOS is the platform this build runs on.
const GOOS = runtime.GOOS

// Linux reports whether goos has the Linux-only facilities.
func Linux(goos string) bool { return goos == "linux" }

// Reason says that facility exists only on Linux; it is the reason recorded
// with an unsupported_platform status.
func Reason(facility, goos string) string {
	return facility + " exists only on Linux (GOOS=" + goos + ")"
}

// Error refuses something that needs a Linux-only facility.
type Error struct {
	Facility string
	GOOS     string
}

func (e *Error) Error() string { return "unsupported_platform: " + Reason(e.Facility, e.GOOS) }

// Check is nil on Linux and an *Error naming facility elsewhere.
func Check(facility string) error { return CheckOn(facility, GOOS) }

// CheckOn is Check for the platform goos.
func CheckOn(facility, goos string) error {
	if Linux(goos) {
		return nil
	}
	return &Error{Facility: facility, GOOS: goos}
}
