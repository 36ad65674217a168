package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// requirePerf is the --require-perf flag: a bool flag ("--require-perf")
// that also takes the narrower policy "--require-perf=core".
type requirePerf struct{ mode string }

func (r *requirePerf) String() string { return r.mode }

func (r *requirePerf) Set(v string) error {
	switch v {
	case "true", "all":
		r.mode = "all"
	case "core":
		r.mode = "core"
	case "false", "":
		r.mode = ""
	default:
		return fmt.Errorf("use --require-perf (every selected hardware axis) or --require-perf=core (cycles, instructions, ipc)")
	}
	return nil
}

// IsBoolFlag lets the flag stand alone, as --require-perf.
func (r *requirePerf) IsBoolFlag() bool { return true }

// coreAxes are what --require-perf=core requires.
var coreAxes = []string{"cycles", "instructions", "ipc"}

// selectAxes reads --metrics and adds what --require-perf needs. Counter
// axes (instructions_sim), which no sample carries, come back apart.
func selectAxes(spec, require string) (sampled, counters []axes.Axis, err error) {
	switch require {
	case "all":
		spec += ",perf"
	case "core":
		spec += "," + strings.Join(coreAxes, ",")
	}
	spec, counters = axes.SplitCounters(spec)
	sampled, err = axes.Select(spec)
	return sampled, counters, err
}

// required lists the axes --require-perf insists on among those selected.
func required(require string, selected []axes.Axis) []string {
	var out []string
	for _, a := range selected {
		switch {
		case require == "all" && a.Family == axes.FamilyPerf:
			out = append(out, a.Name)
		case require == "core" && contains(coreAxes, a.Name):
			out = append(out, a.Name)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// perfCheck fails the first unit unless every required axis has a value in
// every sample of it, naming each missing axis with its status and reason.
func perfCheck(names []string, infos []ndjson.AxisInfo) func([]ndjson.Sample) error {
	reasons := map[string]string{}
	for _, in := range infos {
		reasons[in.Name] = in.Reason
	}
	return func(unit []ndjson.Sample) error {
		missing := map[string]string{}
		for _, s := range unit {
			for _, name := range names {
				v, ok := s.Axes[name]
				if ok && axes.Status(v.S) == axes.Collected {
					continue
				}
				missing[name] = describe(v, reasons[name])
			}
		}
		if len(missing) == 0 {
			return nil
		}
		return fmt.Errorf("--require-perf: hardware axes without samples after the first measurement: %s", joinMissing(missing))
	}
}

func describe(v ndjson.AxisValue, reason string) string {
	text := axes.Status(v.S).Text()
	if v.S == "" {
		text = "no value"
	}
	if v.R != "" {
		reason = v.R
	}
	if reason != "" {
		text += " (" + reason + ")"
	}
	return text
}

func joinMissing(m map[string]string) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ": " + m[n]
	}
	return strings.Join(parts, "; ")
}
