package observe

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// What a worker's CPU-time clock cannot see: the processes it starts. A
// process's CPU-time clock counts its own threads only, so work a worker
// hands to a child is invisible to it; these readers let the CPU timer
// refuse such a worker instead of under-counting it.

// ReapedChildrenTicks is the CPU time (user plus system) of the children
// pid has waited for, cutime + cstime of /proc/PID/stat, in clock ticks
// (USER_HZ, 10 ms on Linux): coarse, but it moves once such children have
// used a tick between them.
func ReapedChildrenTicks(pid int) (int64, error) {
	f, err := statFields(pid)
	if err != nil {
		return 0, err
	}
	if len(f) < 15 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	cu, err1 := strconv.ParseInt(string(f[13]), 10, 64) // field 16, cutime
	cs, err2 := strconv.ParseInt(string(f[14]), 10, 64) // field 17, cstime
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: cutime %q, cstime %q", pid, f[13], f[14])
	}
	return cu + cs, nil
}

// Children lists the live child processes of pid, found by their parent
// in every /proc/N/stat (a process that exits meanwhile is skipped).
func Children(pid int) ([]int, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		f, err := statFields(child)
		if err != nil || len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(string(f[1])); err == nil && ppid == pid {
			out = append(out, child)
		}
	}
	return out, nil
}

// statFields are the fields of /proc/PID/stat after the command name:
// f[0] is field 3 (state).
func statFields(pid int) ([][]byte, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil, fmt.Errorf("/proc/%d/stat: no command field", pid)
	}
	return bytes.Fields(data[i+1:]), nil
}
