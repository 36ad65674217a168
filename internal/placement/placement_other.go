//go:build !linux

package placement

import (
	"io/fs"
	"runtime"

	"github.com/flybench/flybench/internal/platform"
)

// Pin rejects placement: there is no sched_setaffinity here.
func Pin(cpu int, _ fs.FS) Result { return unsupported(cpu, runtime.GOOS) }

// PinProcess rejects placement: there is no sched_setaffinity here.
func PinProcess(_, cpu int, _ fs.FS) Result { return unsupported(cpu, runtime.GOOS) }

// Allowed fails: there is no sched_getaffinity here.
func Allowed() ([]int, error) { return nil, platform.CheckOn("sched_getaffinity", runtime.GOOS) }
