package runner

import (
	"errors"
	"syscall"

	"golang.org/x/sys/unix"
)

// reaper holds what waitid fills in.
type reaper struct{ info unix.Siginfo }

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
	return errors.Join(err, g.wait4(pid, status, rusage))
}
