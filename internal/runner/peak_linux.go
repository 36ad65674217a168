package runner

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// installLauncher writes the launcher into an anonymous file that stays
// open, read-only (a file open for writing cannot be executed), at a
// descriptor high enough that no child's standard descriptors replace it
// before the exec, and measures the floor it leaves. It returns the path
// to exec it by.
func installLauncher() (path string, floorKiB int64, err error) {
	if launcherCode == nil {
		return "", 0, fmt.Errorf("unavailable: no launcher for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	fd, err := unix.MemfdCreate("flybench-launcher", unix.MFD_CLOEXEC)
	if err != nil {
		return "", 0, fmt.Errorf("unavailable: memfd_create: %w", err)
	}
	defer unix.Close(fd)
	if _, err := unix.Write(fd, launcherELF(launcherCode, launcherMachine)); err != nil {
		return "", 0, fmt.Errorf("unavailable: write: %w", err)
	}
	ro, err := unix.Open("/proc/self/fd/"+strconv.Itoa(fd), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", 0, fmt.Errorf("unavailable: reopen read-only: %w", err)
	}
	defer unix.Close(ro)
	high, err := unix.FcntlInt(uintptr(ro), unix.F_DUPFD_CLOEXEC, 100)
	if err != nil {
		return "", 0, fmt.Errorf("unavailable: dup: %w", err)
	}
	path = "/proc/self/fd/" + strconv.Itoa(high)
	if floorKiB, err = probeLauncher(path); err != nil {
		unix.Close(high)
		return "", 0, err
	}
	return path, floorKiB, nil
}

// probeLauncher has the launcher launch itself with no arguments (which
// exits 2) and returns the ru_maxrss it reports, the most of the launcher's
// memory a child can inherit: its floor.
func probeLauncher(path string) (int64, error) {
	report, err := MemFile("flybench-launch-probe", "launcher probe report")
	if err != nil {
		return 0, fmt.Errorf("unavailable: %w", err)
	}
	defer report.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return 0, fmt.Errorf("unavailable: %w", err)
	}
	defer null.Close()
	attr := &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{null.Fd(), null.Fd(), null.Fd(), report.Fd()}}
	// The launcher's child is the launcher's until it execs, so its
	// /proc/self/exe is the launcher.
	pid, err := syscall.ForkExec(path, []string{"flybench-launch", "3", "/proc/self/exe", "probe"}, attr)
	if err != nil {
		return 0, fmt.Errorf("unavailable: cannot execute it: %w", err)
	}
	var ws syscall.WaitStatus
	if err := (reaper{}).wait4(pid, &ws, nil); err != nil {
		return 0, fmt.Errorf("unavailable: wait: %w", err)
	}
	buf := make([]byte, launchReportSize)
	n, _ := report.ReadAt(buf, 0)
	if !ws.Exited() || ws.ExitStatus() != 0 || n != launchReportSize {
		return 0, fmt.Errorf("unavailable: its probe run ended with %s and a report of %d bytes", describeStatus(ws), n)
	}
	inner := syscall.WaitStatus(binary.NativeEndian.Uint32(buf[:4]))
	if !inner.Exited() || inner.ExitStatus() != 2 {
		return 0, fmt.Errorf("unavailable: its probe reported %s, want exit status 2", describeStatus(inner))
	}
	ru := (*syscall.Rusage)(unsafe.Pointer(&buf[8]))
	return max(MaxRSSBytes(int64(ru.Maxrss))>>10, launcherPagesKiB(attr.Env)), nil
}

// resetHighWater makes this tool's resident high-water mark its current
// resident set (Linux 4.0 and later).
func resetHighWater() error {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return fmt.Errorf("unavailable: %w", err)
	}
	return nil
}

// highWaterKiB is this tool's resident high-water mark, VmHWM of
// /proc/self/status.
func highWaterKiB() (int64, error) {
	const path = "/proc/self/status"
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for line := range bytes.Lines(data) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			f := bytes.Fields(rest)
			if len(f) == 0 {
				break
			}
			v, err := strconv.ParseInt(string(f[0]), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: VmHWM %q is not a count", path, f[0])
			}
			return v, nil
		}
	}
	return 0, fmt.Errorf("%s: no VmHWM field", path)
}

// launcherPagesKiB is what the launcher can have resident: the page of
// its file, and its stack, which holds its arguments (at most four short
// ones and a path) and environment, and a page of its own. The kernel
// counts resident pages per CPU and may read a process this small as 0.
func launcherPagesKiB(env []string) int64 {
	page := int64(os.Getpagesize())
	size := int64(len(launcherCode)) + 4096 // the arguments: the command's path and a few words
	for _, e := range env {
		size += int64(len(e)) + 1 + 8
	}
	return (page + (size+page-1)/page*page + page) >> 10
}
