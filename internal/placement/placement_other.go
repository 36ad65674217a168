//go:build !linux

package placement

import (
	"io/fs"
	"runtime"
)

// Pin rejects placement: there is no sched_setaffinity here.
func Pin(cpu int, _ fs.FS) Result { return unsupported(cpu, runtime.GOOS) }

// PinProcess rejects placement: there is no sched_setaffinity here.
func PinProcess(_, cpu int, _ fs.FS) Result { return unsupported(cpu, runtime.GOOS) }
