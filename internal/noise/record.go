package noise

import (
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Record is the noise profile of a finished calibration of command,
// created at the given time (written in RFC 3339, UTC) by toolVersion.
func Record(command []string, cfg Config, res *Result, created time.Time, toolVersion string) *ndjson.Noise {
	return &ndjson.Noise{
		Command: command, Invocations: res.Invocations, MinRuns: cfg.MinRuns, MaxRuns: cfg.MaxRuns,
		TolerancePct: cfg.TolerancePct, Converged: res.Converged, Class: res.Class, Tags: res.Tags,
		Created: created.UTC().Format(time.RFC3339), ToolVersion: toolVersion, Metrics: res.Metrics,
	}
}
