//go:build !linux

package runner

import "syscall"

// reaper is empty: there is no waitid(WNOWAIT) here.
type reaper struct{}

// Reap waits for the child pid to exit and reaps it in one wait4, filling
// status and rusage (either may be nil), then withdraws the pid from Kill.
// Without waitid(WNOWAIT) there is no moment when an exited child can
// still be read and not yet reaped, so exited is never called (nothing
// here has a /proc to read anyway), and a Kill that read the pid just
// before the reap may signal it just after: harmless unless the kernel
// hands the same pid to a new process group within those microseconds.
func (g *Guard) Reap(pid int, exited func(), status *syscall.WaitStatus, rusage *syscall.Rusage) error {
	err := g.wait4(pid, status, rusage)
	g.withdraw()
	return err
}
