package runner

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// exitInfo is what waitid fills in.
type exitInfo = unix.Siginfo

// Reap waits for the child pid to exit, calls exited (when not nil) while
// the exited child is still there to be read, such as its /proc files,
// withdraws the pid from Kill and only then reaps the child, filling
// status and rusage (either may be nil).
func (g *Guard) Reap(pid int, exited func(), status *syscall.WaitStatus, rusage *syscall.Rusage) error {
	err := unix.Waitid(unix.P_PID, pid, &g.info, unix.WEXITED|unix.WNOWAIT, nil)
	for err == unix.EINTR {
		err = unix.Waitid(unix.P_PID, pid, &g.info, unix.WEXITED|unix.WNOWAIT, nil)
	}
	if exited != nil && err == nil {
		exited()
	}
	g.withdraw()
	_, err4 := syscall.Wait4(pid, status, 0, rusage)
	for err4 == syscall.EINTR {
		_, err4 = syscall.Wait4(pid, status, 0, rusage)
	}
	return errors.Join(err, err4)
}
