package report

import (
	"fmt"

	"github.com/flybench/flybench/pkg/ndjson"
)

// caseName is case i's name, or "case i" when the run record left it empty.
func (r *Run) caseName(i int) string {
	if i >= 0 && i < len(r.Run.Cases) && r.Run.Cases[i].Name != "" {
		return r.Run.Cases[i].Name
	}
	return fmt.Sprintf("case %d", i)
}

// summary is case i's summary, nil when the analysis has none.
func (r *Run) summary(i int) *ndjson.Summary {
	for k := range r.Summaries {
		if r.Summaries[k].Case == i {
			return &r.Summaries[k]
		}
	}
	return nil
}

// calibration is case i's calibration, nil when the stream has none.
func (r *Run) calibration(i int) *ndjson.Calibration {
	for k := range r.Calibrations {
		if r.Calibrations[k].Case == i {
			return &r.Calibrations[k]
		}
	}
	return nil
}

// against is the comparison of contender i against the reference, or nil.
func (r *Run) against(i int) *ndjson.Comparison {
	for k := range r.Comparisons {
		c := &r.Comparisons[k]
		if c.Reference == reference && c.Contender == i {
			return c
		}
	}
	return nil
}

// cpuTimed reports whether the run's per-operation times are CPU time
// (--timer cpu) rather than elapsed time.
func (r *Run) cpuTimed() bool { return r.Run.Timer.KindOf() == ndjson.TimerCPU }

// timeLabel names the per-operation time in cards and tables: "cpu time"
// for a CPU-timed run, else what is given.
func (r *Run) timeLabel(elapsed string) string {
	if r.cpuTimed() {
		return "cpu time"
	}
	return elapsed
}

// reference is the index of the case every contender is compared with.
const reference = 0

// incomplete says why a run did not complete, or "" when it did.
func (r *Run) incomplete() string {
	switch {
	case r.End == nil:
		return "stream cut short (no end record)"
	case r.End.Reason == ndjson.EndCompleted:
		return ""
	case r.End.Reason == ndjson.EndBudget && r.End.Until != nil:
		return "" // a stopping rule's limit: the comparison says so
	case r.End.Reason == "":
		return "end record gives no reason"
	case r.End.Error != "":
		return r.End.Reason + " (" + r.End.Error + ")"
	}
	return r.End.Reason
}

// ciLabel names the analysis confidence interval: "95% CI".
func (r *Run) ciLabel() string {
	if r.Analysis == nil || r.Analysis.ConfidencePct == 0 {
		return "CI"
	}
	return confidence(r.Analysis.ConfidencePct) + " CI"
}
