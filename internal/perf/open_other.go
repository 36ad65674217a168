//go:build !linux

package perf

import (
	"runtime"

	"github.com/flybench/flybench/internal/axes"
)

// Open reports every requested axis as unsupported_platform: counters are
// read through perf_event_open, which only Linux has.
func Open(requested []string) *Session {
	s := &Session{}
	for _, a := range wanted(requested) {
		s.probes = append(s.probes, Probe{Axis: a, Status: axes.UnsupportedPlatform,
			Reason: "perf_event_open exists only on Linux (GOOS=" + runtime.GOOS + ")"})
	}
	return s
}

// openThread is Open: no platform but Linux counts threads.
func openThread(tid int, requested []string) *Session { return Open(requested) }
