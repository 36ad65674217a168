package recorder

import (
	"bufio"
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// platformHost reads the kernel release (uname), the CPU model
// (/proc/cpuinfo) and cpu0's frequency governor, each "unavailable" when
// it cannot be read.
func platformHost() (kernel, model, governor string) {
	kernel, model, governor = "unavailable", "unavailable", "unavailable"
	var u syscall.Utsname
	if syscall.Uname(&u) == nil {
		var b []byte
		for _, c := range u.Release {
			if c == 0 {
				break
			}
			b = append(b, byte(c))
		}
		kernel = string(b)
	}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if g, err := os.ReadFile("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"); err == nil {
		governor = strings.TrimSpace(string(g))
	}
	return kernel, model, governor
}

// nominalResolution is clock_getres(CLOCK_MONOTONIC), the clock behind
// time.Now's monotonic reading on Linux, or 0.
func nominalResolution() float64 {
	const clockMonotonic = 1
	var ts syscall.Timespec
	_, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETRES, clockMonotonic, uintptr(unsafe.Pointer(&ts)), 0)
	if errno != 0 {
		return 0
	}
	return float64(ts.Nano())
}
