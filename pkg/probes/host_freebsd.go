package probes

import "golang.org/x/sys/unix"

// sysctlCPUModel is hw.model, or "" when it cannot be read.
func sysctlCPUModel() string {
	s, _ := unix.Sysctl("hw.model")
	return s
}
