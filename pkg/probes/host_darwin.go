package probes

import "golang.org/x/sys/unix"

// sysctlCPUModel is machdep.cpu.brand_string, or "" when it cannot be read.
func sysctlCPUModel() string {
	s, _ := unix.Sysctl("machdep.cpu.brand_string")
	return s
}
