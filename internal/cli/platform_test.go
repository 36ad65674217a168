package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

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
