//go:build !linux

package runner

import (
	"fmt"
	"runtime"
)

func findCgroupsHere() MemCgroups {
	return MemCgroups{Err: fmt.Errorf("cgroups are Linux's (%s)", runtime.GOOS)}
}

func processAlive(int) bool { return true }

func (c *Command) openCgroupV2() error { return fmt.Errorf("cgroups are Linux's (%s)", runtime.GOOS) }
func (c *Command) closeCgroupFD()      {}
func (c *Command) joinCgroup() error   { return fmt.Errorf("cgroups are Linux's (%s)", runtime.GOOS) }
func (c *Command) cgroupLeave()        {}
func (c *Command) resetCgroupPeak() error {
	return fmt.Errorf("cgroups are Linux's (%s)", runtime.GOOS)
}
func (c *Command) readCgroupPeak() (int64, error) {
	return 0, fmt.Errorf("cgroups are Linux's (%s)", runtime.GOOS)
}
