package conditions

import (
	"io/fs"
	"os"
)

// Detectors are the sources a Monitor reads. A nil detector is reported as
// unavailable.
type Detectors struct {
	// PPD and Platform both describe the configured profile; the Monitor
	// prefers PPD, which also reports degradation.
	PPD      ProfileDetector
	Platform ProfileDetector
	Throttle ThrottleDetector
}

// Linux returns the Linux detectors reading through root, the file system
// rooted at "/", and asking power-profiles-daemon through client (nil when
// there is none).
func Linux(root fs.FS, client PPDClient) Detectors {
	return Detectors{
		PPD:      &PowerProfiles{Root: root, Client: client},
		Platform: PlatformProfile{Root: root},
		Throttle: ThrottleCounters{Root: root},
	}
}

// System returns the detectors of this machine.
func System() Detectors {
	return Linux(os.DirFS("/"), systemPPDClient())
}
