package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/hostload"
	"github.com/flybench/flybench/pkg/platform"
)

// Off Linux, worker mode and the watch are usage errors naming the status
// and the platform; everything else, and everything on Linux, goes ahead.
func TestPlatformRefusals(t *testing.T) {
	for _, tc := range []struct {
		mode, watch, goos string
		want              string
	}{
		{"worker", "", "darwin", "--worker: unsupported_platform: worker mode"},
		{"exec", "retake", "freebsd", "--watch retake: unsupported_platform: /proc/stat exists only on Linux (GOOS=freebsd)"},
		{"worker", "observe", "linux", ""},
		{"exec", "", "darwin", ""},
		{"batch", "", "freebsd", ""},
		{"gotest", "", "darwin", ""},
	} {
		err := platformRefusal(tc.mode, tc.watch, tc.goos)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%+v: refused: %v", tc, err)
			}
			continue
		}
		var xe *exitError
		if !errors.As(err, &xe) || xe.code != ExitUsage || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want exit %d with %q", tc, err, ExitUsage, tc.want)
		}
	}
}

func TestGatePlatformHint(t *testing.T) {
	if gatePlatformHint(platform.CheckOn("/proc/stat", "darwin")) == "" {
		t.Error("no hint for an unsupported platform")
	}
	if _, err := (hostload.ProcStat{Path: "/nonexistent"}).Read(); gatePlatformHint(err) != "" {
		t.Errorf("a hint for %v", err)
	}
}
