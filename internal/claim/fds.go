package claim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// FormatFDs renders descriptors as $HOST_CPU_CLAIM_FDS: "3,4".
func FormatFDs(fds []int) string { return FormatCPUs(fds) }

// ParseFDs reads $HOST_CPU_CLAIM_FDS.
func ParseFDs(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var fds []int
	for w := range strings.SplitSeq(s, ",") {
		fd, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || fd < 0 {
			return nil, fmt.Errorf("%s=%q: %q is not a descriptor number", FDsEnv, s, w)
		}
		fds = append(fds, fd)
	}
	return fds, nil
}

// ExecEnv returns environ with $HOST_CPU_CLAIM_FDS listing fds, added to
// the descriptors an enclosing claim already listed; with none at all the
// variable is removed.
func ExecEnv(environ []string, fds []int) []string {
	prefix := FDsEnv + "="
	var all []int
	out := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, prefix); ok {
			inherited, _ := ParseFDs(v)
			all = append(all, inherited...)
			continue
		}
		out = append(out, kv)
	}
	for _, fd := range fds {
		if !slices.Contains(all, fd) {
			all = append(all, fd)
		}
	}
	if len(all) > 0 {
		out = append(out, prefix+FormatFDs(all))
	}
	return out
}

// ProtectFDs sets close-on-exec on the claim descriptors this process
// inherited (listed in $HOST_CPU_CLAIM_FDS), so the programs it starts
// never inherit the claim and cannot keep it alive after the run, while
// this process goes on holding it. A measuring stage calls it before it
// starts benchmarked commands; a stage that execs the next one must not.
// Descriptors that are closed or are not claim files are left alone.
func ProtectFDs(getenv func(string) string) error {
	fds, err := ParseFDs(getenv(FDsEnv))
	if err != nil {
		return err
	}
	for _, fd := range fds {
		if !isClaimFD(fd) {
			continue
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
			return fmt.Errorf("protect claim descriptor %d: %w", fd, err)
		}
	}
	return nil
}

// isClaimFD reports whether fd is open on a regular file named like a
// claim file, so a stale or foreign list never touches another descriptor.
func isClaimFD(fd int) bool {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false
	}
	target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if errors.Is(err, os.ErrNotExist) && !procMounted() {
		return true // no /proc to ask: trust the list
	}
	if err != nil {
		return false
	}
	return isClaimFile(filepath.Base(strings.TrimSuffix(target, " (deleted)")))
}

func procMounted() bool {
	_, err := os.Stat("/proc/self/fd")
	return err == nil
}

// Inherited reads the claim this process inherited through
// $HOST_CPU_CLAIM_FDS: held is false when it lists no claim file; cpus
// are the CPUs of a per-CPU claim (its cpu.N files), nil for a claim of
// the whole machine (its machine file alone).
func Inherited(getenv func(string) string) (cpus []int, held bool, err error) {
	fds, err := ParseFDs(getenv(FDsEnv))
	if err != nil {
		return nil, false, err
	}
	for _, fd := range fds {
		target, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		if err != nil || !isClaimFD(fd) {
			continue
		}
		held = true
		if n, ok := cpuOfFile(filepath.Base(strings.TrimSuffix(target, " (deleted)"))); ok {
			cpus = append(cpus, n)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), held, nil
}
