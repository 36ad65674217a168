package runner

import (
	"runtime"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// Guard lets any goroutine kill a child process that another goroutine
// starts, waits for and reaps, without ever signalling a stranger: the
// child's pid is published while it runs and withdrawn before it is
// reaped, and until a process is reaped its pid cannot be reused. A Guard
// stays killed once Kill has been called.
type Guard struct {
	pid     atomic.Int64 // the child until it is reaped, 0 when none
	killing atomic.Int32 // Kill calls that may be about to signal pid
	killed  atomic.Bool
	reaper  // Reap's state, kept here so that reaping does not allocate
}

// Publish makes a just-started child's pid visible to Kill. If Kill ran
// meanwhile, the child's group is killed now.
func (g *Guard) Publish(pid int) {
	g.pid.Store(int64(pid))
	// A Kill that read pid before the Store has set killed before its read
	// (atomics are sequentially consistent), so this sees it.
	if g.killed.Load() {
		KillGroup(pid)
	}
}

// Kill sends SIGKILL to the published child's process group, if there is
// one, and marks the guard killed. Safe from any goroutine, such as a
// signal handler's.
func (g *Guard) Kill() {
	g.killed.Store(true)
	g.killing.Add(1)
	if pid := g.pid.Load(); pid != 0 {
		KillGroup(int(pid))
	}
	g.killing.Add(-1)
}

// Killed reports whether Kill has been called.
func (g *Guard) Killed() bool { return g.killed.Load() }

// withdraw takes the pid away from Kill and waits out a Kill that read it
// and may be signalling it now.
func (g *Guard) withdraw() {
	g.pid.Store(0)
	for g.killing.Load() != 0 {
		runtime.Gosched()
	}
}

// wait4 reaps the child pid, filling status and rusage (either may be nil).
func (reaper) wait4(pid int, status *syscall.WaitStatus, rusage *syscall.Rusage) error {
	_, err := syscall.Wait4(pid, status, 0, rusage)
	for err == syscall.EINTR {
		_, err = syscall.Wait4(pid, status, 0, rusage)
	}
	return err
}

// KillGroup kills the process group of pid, and pid itself in case it left
// the group. The caller guarantees pid is not yet reaped.
func KillGroup(pid int) {
	_ = unix.Kill(-pid, unix.SIGKILL)
	_ = unix.Kill(pid, unix.SIGKILL)
}
