//go:build !linux

package pagecache

import (
	"os"

	"github.com/flybench/flybench/internal/platform"
)

// Drop is refused off Linux: posix_fadvise's drop and mincore's count are
// what it rests on.
func Drop(path string) Result {
	return Result{Path: path, Before: -1, After: -1, Err: platform.Check(Facility)}
}

// Resident cannot count off Linux.
func Resident(*os.File, int64) int { return -1 }

// Ballast holds nothing off Linux, where nothing is dropped.
func Ballast(int) func() { return func() {} }
