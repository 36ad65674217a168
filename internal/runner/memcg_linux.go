package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// processAlive says whether process pid exists.
func processAlive(pid int) bool {
	return unix.Kill(pid, 0) != unix.ESRCH
}

func findCgroupsHere() MemCgroups {
	return FindCgroups("/proc/self/mountinfo", "/proc/self/cgroup")
}

// openCgroupV2 opens the cgroup's directory, which every child is cloned
// into, and its memory.peak, which a write resets for the descriptor that
// wrote (Linux 6.12 and later; an earlier kernel cannot reset it, so the
// cgroup is not used).
func (c *Command) openCgroupV2() error {
	fd, err := unix.Open(c.cg.dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("open the cgroup %s: %w", c.cg.dir, err)
	}
	c.cg.fd = fd
	file := filepath.Join(c.cg.dir, "memory.peak")
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("%s cannot be reset (Linux 6.12 and later): %w", file, unwrapPath(err))
	}
	c.cg.peak = f
	if err := c.resetCgroupPeak(); err != nil {
		return err
	}
	c.attr.Sys.UseCgroupFD, c.attr.Sys.CgroupFD = true, fd
	return nil
}

func (c *Command) closeCgroupFD() {
	if c.cg.fd >= 0 {
		unix.Close(c.cg.fd)
		c.cg.fd = -1
	}
}

// joinCgroup (v1) locks the calling goroutine to its thread and moves the
// thread into the command's cgroup, so that the children it forks start
// there.
func (c *Command) joinCgroup() error {
	runtime.LockOSThread()
	if err := writeTask(c.cg.dir); err != nil {
		runtime.UnlockOSThread()
		return err
	}
	c.cg.joined = true
	return nil
}

// cgroupLeave (v1) moves the joined thread back to this process's cgroup
// and unlocks it. A thread that cannot leave stays locked, so that it ends
// with its goroutine rather than run other goroutines in the cgroup.
func (c *Command) cgroupLeave() {
	if c.cg == nil || !c.cg.joined {
		return
	}
	if err := writeTask(c.cg.Home); err != nil {
		if c.usage.ChargedErr == nil {
			c.usage.ChargedErr = err
		}
		return
	}
	c.cg.joined = false
	runtime.UnlockOSThread()
}

// writeTask moves the calling thread into the v1 cgroup dir.
func writeTask(dir string) error {
	file := filepath.Join(dir, "tasks")
	if err := os.WriteFile(file, []byte(strconv.Itoa(unix.Gettid())), 0); err != nil {
		return fmt.Errorf("move this thread into %s: %w", dir, unwrapPath(err))
	}
	return nil
}

// resetCgroupPeak makes the cgroup's peak its present charge.
func (c *Command) resetCgroupPeak() error {
	if c.cg.Version == 2 {
		if _, err := c.cg.peak.WriteAt([]byte("reset\n"), 0); err != nil {
			return fmt.Errorf("reset %s: %w", c.cg.peak.Name(), unwrapPath(err))
		}
		return nil
	}
	file := filepath.Join(c.cg.dir, "memory.max_usage_in_bytes")
	if err := os.WriteFile(file, []byte("0"), 0); err != nil {
		return fmt.Errorf("reset %s: %w", file, unwrapPath(err))
	}
	return nil
}

// readCgroupPeak reads the cgroup's peak charge since the reset.
func (c *Command) readCgroupPeak() (int64, error) {
	if c.cg.Version == 1 {
		return c.readCgroup("memory.max_usage_in_bytes")
	}
	buf := make([]byte, 32)
	n, err := c.cg.peak.ReadAt(buf, 0)
	if n == 0 && err != nil {
		return 0, fmt.Errorf("read %s: %w", c.cg.peak.Name(), unwrapPath(err))
	}
	return parseCount(c.cg.peak.Name(), buf[:n])
}
