//go:build !linux

package worker

// clockSource names the Go runtime's monotonic clock, whose resolution
// this platform does not report: the smallest step observed stands in
// for it, an upper bound.
func clockSource() (string, float64) { return "go-runtime-monotonic", observedStep() }
