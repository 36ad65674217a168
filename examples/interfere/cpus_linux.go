package main

import (
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// allowedCPUs is the numbers of the CPUs this process may run on.
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return firstCPUs(runtime.NumCPU())
	}
	var out []int
	for cpu := 0; cpu < len(set)*64; cpu++ {
		if set.IsSet(cpu) {
			out = append(out, cpu)
		}
	}
	if len(out) == 0 {
		return firstCPUs(runtime.NumCPU())
	}
	return out
}

// pin restricts the calling OS thread to cpus.
func pin(cpus []int) error {
	var set unix.CPUSet
	for _, cpu := range cpus {
		set.Set(cpu)
	}
	return unix.SchedSetaffinity(0, &set)
}

// nap sleeps the calling OS thread for ns nanoseconds in the kernel.
func nap(ns int64) {
	ts := unix.NsecToTimespec(ns)
	unix.Nanosleep(&ts, nil)
}

// dropCache asks the kernel to forget f's cached pages, so reading it back
// goes to the disk.
func dropCache(f *os.File) {
	unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}
