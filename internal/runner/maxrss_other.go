//go:build !darwin

package runner

// MaxRSSBytes converts a ru_maxrss value to bytes: Linux and FreeBSD
// report KiB.
func MaxRSSBytes(maxrss int64) int64 { return maxrss << 10 }
