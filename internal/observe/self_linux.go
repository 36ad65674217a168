package observe

import "os"

// selfPeak is VmHWM of /proc/self/status, in bytes.
func selfPeak() (int64, error) {
	const path = "/proc/self/status"
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	kib, err := statusField(path, data, FieldPeakRSS)
	return kib << 10, err
}
