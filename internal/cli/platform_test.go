package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
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

func TestGatePlatformRefusal(t *testing.T) {
	err := gatePlatformRefusal("darwin")
	var xe *exitError
	if !errors.As(err, &xe) || xe.code != ExitFailure || xe.hint == "" ||
		err.Error() != "unsupported_platform: /proc/stat exists only on Linux (GOOS=darwin)" {
		t.Fatalf("darwin: %#v", err)
	}
	if err := gatePlatformRefusal("linux"); err != nil {
		t.Fatalf("linux: %v", err)
	}
}

// The run record's clock names the backend every sample was read from, on
// this platform: SampleClock's.
func TestRunRecordNamesTheSampleClock(t *testing.T) {
	code, stdout, stderr := runTool("fb-sample", "--samples", "10", "-t", "20ms", "--warmup", "1ms", "--progress", "none", "--", "true")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	line, _, _ := strings.Cut(stdout, "\n")
	var run ndjson.Run
	if err := json.Unmarshal([]byte(line), &run); err != nil || run.Type != "run" {
		t.Fatalf("first record %q: %v", line, err)
	}
	if want := (probes.SampleClock{}).Backend(); run.Clock.Backend != want || run.Clock.NominalNS <= 0 {
		t.Fatalf("clock %+v, want backend %q with a nominal resolution", run.Clock, want)
	}
}
