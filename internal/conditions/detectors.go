package conditions

import (
	"io/fs"
	"os"

	osplatform "github.com/flybench/flybench/internal/platform" // "platform" is a test helper here
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

// System returns the detectors of this machine: the Linux ones, or on any
// other platform Unsupported's.
func System() Detectors {
	if !osplatform.Linux(osplatform.GOOS) {
		return Unsupported(osplatform.GOOS)
	}
	return Linux(os.DirFS("/"), systemPPDClient())
}

// Unsupported returns the detectors of a platform goos that has none of
// the Linux sources: each reads as unavailable, its reason the
// unsupported_platform status, the source and the platform. The monitor
// then treats the host as it treats a Linux host without them.
func Unsupported(goos string) Detectors {
	reason := func(facility string) string { return osplatform.CheckOn(facility, goos).Error() }
	return Detectors{
		PPD:      unsupportedProfile(reason("power-profiles-daemon")),
		Platform: unsupportedProfile(reason("/" + platformProfilePath)),
		Throttle: unsupportedThrottle(reason("/" + cpuRoot + "/cpu*/thermal_throttle")),
	}
}

// unsupportedProfile is a profile detector that cannot exist here.
type unsupportedProfile string

func (u unsupportedProfile) Profile() ProfileReading { return unavailableProfile(string(u)) }

// unsupportedThrottle is a throttle detector that cannot exist here.
type unsupportedThrottle string

func (u unsupportedThrottle) Throttle() ThrottleSnapshot {
	return ThrottleSnapshot{Unsupported: string(u)}
}
