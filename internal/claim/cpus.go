package claim

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// MaxCPU bounds CPU numbers, so a typo cannot ask for a billion files.
const MaxCPU = 1<<16 - 1

// ParseCPUList parses the kernel's CPU list syntax ("2,3", "0-3", "0-1,8")
// into ascending, distinct CPU numbers. The empty list is nil.
func ParseCPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var cpus []int
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		first, err := cpuNumber(lo)
		if err != nil {
			return nil, err
		}
		last := first
		if isRange {
			if last, err = cpuNumber(hi); err != nil {
				return nil, err
			}
			if last < first {
				return nil, fmt.Errorf("CPU range %q runs backwards", part)
			}
		}
		for n := first; n <= last; n++ {
			cpus = append(cpus, n)
		}
	}
	slices.Sort(cpus)
	return slices.Compact(cpus), nil
}

func cpuNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > MaxCPU {
		return 0, fmt.Errorf("%q is not a CPU number (0 to %d)", s, MaxCPU)
	}
	return n, nil
}

// FormatCPUs renders CPU numbers as a comma list: "2,3".
func FormatCPUs(cpus []int) string {
	words := make([]string, len(cpus))
	for i, n := range cpus {
		words[i] = strconv.Itoa(n)
	}
	return strings.Join(words, ",")
}

// OnlineCPUs reads the online CPUs from sys/devices/system/cpu/online in
// root (the file system root, or a fixture).
func OnlineCPUs(root fs.FS) ([]int, error) {
	data, err := fs.ReadFile(root, "sys/devices/system/cpu/online")
	if err != nil {
		return nil, err
	}
	return ParseCPUList(string(data))
}

// CheckCPUs refuses CPUs that are not online.
func CheckCPUs(cpus, online []int) error {
	for _, n := range cpus {
		if _, found := slices.BinarySearch(online, n); !found {
			return fmt.Errorf("CPU %d is not online (online: %s)", n, FormatCPUs(online))
		}
	}
	return nil
}
