//go:build !linux && !darwin && !freebsd

package recorder

// rusageReason says why the process axes are unavailable here.
const rusageReason = "the process axes are read with getrusage, on Linux, darwin and FreeBSD only"

func readRusage() (procSnap, bool) { return procSnap{}, false }
