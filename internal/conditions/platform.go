package conditions

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// platformProfilePath is the ACPI platform-profile selector, relative to "/".
const platformProfilePath = "sys/firmware/acpi/platform_profile"

// ProfileReading is one answer from a configured-profile detector.
type ProfileReading struct {
	// Available is false when the detector could not answer; Reason then
	// says why and Detector is Unavailable.
	Available bool
	Reason    string
	Detector  string
	// Profile is one of the Profile constants; Raw is the detector's own
	// word for it, kept even when Profile is ProfileUnknown.
	Profile string
	Raw     string
	// Degradation is one of the Degradation constants; only
	// power-profiles-daemon supplies one.
	Degradation string
}

// unavailableProfile is the reading of a detector that could not answer.
func unavailableProfile(reason string) ProfileReading {
	return ProfileReading{
		Reason: reason, Detector: Unavailable,
		Profile: ProfileUnknown, Degradation: DegradationUnknown,
	}
}

// ProfileDetector reports the host's configured performance profile.
type ProfileDetector interface {
	Profile() ProfileReading
}

// PlatformProfile reads the ACPI platform_profile sysfs file through Root,
// the file system rooted at "/".
type PlatformProfile struct {
	Root fs.FS
}

// Profile reads and classifies the platform profile.
func (p PlatformProfile) Profile() ProfileReading {
	b, err := fs.ReadFile(p.Root, platformProfilePath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return unavailableProfile(fmt.Sprintf("platform_profile: %q is absent", "/"+platformProfilePath))
	case err != nil:
		return unavailableProfile(fmt.Sprintf("platform_profile: %v", err))
	}
	raw := strings.TrimSpace(string(b))
	if raw == "" {
		return unavailableProfile(fmt.Sprintf("platform_profile: %q is empty", "/"+platformProfilePath))
	}
	return ProfileReading{
		Available: true, Detector: DetectorPlatformProfile,
		Profile: platformClass(raw), Raw: raw, Degradation: DegradationUnknown,
	}
}

// platformClass maps a platform_profile choice to a profile class. Choices
// the kernel may add later (such as "custom") stay unknown rather than
// guessed.
func platformClass(raw string) string {
	switch raw {
	case "low-power", "quiet", "cool":
		return ProfileReduced
	case "balanced":
		return ProfileBalanced
	case "balanced-performance", "performance":
		return ProfilePerformance
	}
	return ProfileUnknown
}
