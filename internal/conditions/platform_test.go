package conditions

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestPlatformProfileValues(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"low-power", ProfileReduced},
		{"quiet", ProfileReduced},
		{"cool", ProfileReduced},
		{"balanced", ProfileBalanced},
		{"balanced-performance", ProfilePerformance},
		{"performance", ProfilePerformance},
		{"custom", ProfileUnknown},
		{"max-power", ProfileUnknown},
	} {
		root := fstest.MapFS{platformProfilePath: file(tc.raw)}
		r := PlatformProfile{Root: root}.Profile()
		if !r.Available || r.Detector != DetectorPlatformProfile || r.Profile != tc.want || r.Raw != tc.raw {
			t.Errorf("%s: got %+v, want available %s with raw kept", tc.raw, r, tc.want)
		}
		if r.Degradation != DegradationUnknown {
			t.Errorf("%s: platform_profile claimed degradation %q", tc.raw, r.Degradation)
		}
	}
}

func TestPlatformProfileUnavailable(t *testing.T) {
	for name, root := range map[string]fstest.MapFS{
		"absent": {"sys/firmware/acpi/tables": dir},
		"empty":  {platformProfilePath: &fstest.MapFile{Data: []byte("\n")}},
	} {
		r := PlatformProfile{Root: root}.Profile()
		if r.Available || r.Detector != Unavailable || r.Profile != ProfileUnknown || !strings.Contains(r.Reason, "platform_profile") {
			t.Errorf("%s: got %+v, want unavailable with a reason", name, r)
		}
	}
}
