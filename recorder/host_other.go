//go:build !linux

package recorder

// platformHost: the kernel, CPU model and governor are read on Linux only.
func platformHost() (kernel, model, governor string) {
	return "unavailable", "unavailable", "unavailable"
}

// nominalResolution: the platform reports none the standard library can
// read; clock uses the smallest observed step.
func nominalResolution() float64 { return 0 }
