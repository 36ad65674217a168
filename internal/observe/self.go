package observe

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// SelfReader reads the measuring tool's own footprint.
type SelfReader interface {
	// CPU is the process's cumulative user plus system CPU time, in ns.
	CPU() int64
	// RSS is the process's resident set now, in bytes; 0 when unreadable.
	// It is telemetry only.
	RSS() int64
}

// procSelf reads getrusage(RUSAGE_SELF) and /proc/self/statm.
type procSelf struct{}

func (procSelf) CPU() int64 {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return unix.TimevalToNsec(ru.Utime) + unix.TimevalToNsec(ru.Stime)
}

func (procSelf) RSS() int64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := bytes.Fields(data)
	if len(fields) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
