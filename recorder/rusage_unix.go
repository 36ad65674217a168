//go:build linux || darwin || freebsd

package recorder

import "syscall"

// rusageReason is empty: this platform has getrusage.
const rusageReason = ""

// readRusage is the process's cumulative counters and its peak resident
// set in bytes (getrusage(RUSAGE_SELF)).
func readRusage() (procSnap, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return procSnap{}, false
	}
	var s procSnap
	s.c = [nCounters]int64{
		ru.Utime.Nano() + ru.Stime.Nano(),
		int64(ru.Minflt), int64(ru.Majflt),
		int64(ru.Nvcsw), int64(ru.Nivcsw),
		int64(ru.Inblock), int64(ru.Oublock),
	}
	s.rss = int64(ru.Maxrss) * maxrssUnit
	return s, true
}
