//go:build !linux

package recorder

// perfReason says why perf software events are unavailable here.
const perfReason = "perf software events are read through perf_event_open, on Linux only"

func perfRead(int32) (perfSnap, bool) { return perfSnap{}, false }

func perfProbe() (status, reason string) { return statusUnsupported, perfReason }
