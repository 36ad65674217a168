//go:build !linux

package observe

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/flybench/flybench/internal/runner"
)

// selfPeak is getrusage(RUSAGE_SELF)'s ru_maxrss, in bytes: there is no
// /proc/self/status here.
func selfPeak() (int64, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return runner.MaxRSSBytes(int64(ru.Maxrss)), nil
}
