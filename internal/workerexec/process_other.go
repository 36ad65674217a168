//go:build !linux

package workerexec

import (
	"syscall"
	"time"
)

// pipeCloexec makes a pipe with both ends close-on-exec, under the fork
// lock so that no child forked meanwhile inherits it.
func pipeCloexec(p []int) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(p); err != nil {
		return err
	}
	syscall.CloseOnExec(p[0])
	syscall.CloseOnExec(p[1])
	return nil
}

// waitExit is never reached: Start refuses before a worker exists.
func (w *Worker) waitExit(time.Duration) bool { return false }
