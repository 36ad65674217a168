package workerexec

import (
	"time"

	"golang.org/x/sys/unix"
)

// pipeCloexec makes a pipe with both ends close-on-exec.
func pipeCloexec(p []int) error { return unix.Pipe2(p, unix.O_CLOEXEC) }

// waitExit reports whether the worker has exited (and is waiting to be
// reaped), polling for at most d.
func (w *Worker) waitExit(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for pause := 50 * time.Microsecond; ; pause = min(2*pause, 5*time.Millisecond) {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, w.lastPID, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == nil && info.Signo == int32(unix.SIGCHLD) {
			return true
		}
		if err != nil && err != unix.EINTR || !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(min(pause, time.Until(deadline)))
	}
}
