package cli

import (
	"errors"

	"github.com/flybench/flybench/internal/platform"
	"github.com/flybench/flybench/internal/workerexec"
)

// platformRefusal refuses, on a platform goos without them, the parts of a
// measurement that rest wholly on Linux-only facilities: worker mode, and
// the interference watch, which reads host CPU counters from /proc/stat.
// What degrades instead (placement, perf and I/O axes, conditions) runs and
// records its unsupported_platform status in the stream.
func platformRefusal(mode, watch, goos string) error {
	if mode == "worker" {
		if err := workerexec.SupportedOn(goos); err != nil {
			return usageErrorf("--worker: %v", err)
		}
	}
	if watch != "" {
		if err := platform.CheckOn("/proc/stat", goos); err != nil {
			return withCode(ExitUsage, errors.New("--watch "+watch+": "+err.Error()),
				"the watch estimates foreign CPU load from the host's /proc/stat counters; run without --watch here")
		}
	}
	return nil
}

// gatePlatformRefusal stops fb-gate, before it waits or writes anything,
// on a platform goos without /proc/stat: it cannot see the load it gates
// on, and passing would be a clean bill it cannot give.
func gatePlatformRefusal(goos string) error {
	if err := platform.CheckOn("/proc/stat", goos); err != nil {
		return withCode(ExitFailure, err, "fb-gate judges quiescence from /proc/stat, which this platform lacks; run the next stage without fb-gate")
	}
	return nil
}
