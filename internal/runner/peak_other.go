//go:build !linux

package runner

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

func installLauncher() (string, int64, error) {
	return "", 0, fmt.Errorf("unavailable: no launcher for %s/%s", runtime.GOOS, runtime.GOARCH)
}

func resetHighWater() error {
	return fmt.Errorf("unavailable: /proc/self/clear_refs is Linux's (%s)", runtime.GOOS)
}

// highWaterKiB is this tool's peak resident set, getrusage's ru_maxrss.
func highWaterKiB() (int64, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return MaxRSSBytes(int64(ru.Maxrss)) >> 10, nil
}
