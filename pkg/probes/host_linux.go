package probes

// sysctlCPUModel is empty: Linux names the CPU in /proc/cpuinfo.
func sysctlCPUModel() string { return "" }
