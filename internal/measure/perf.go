package measure

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/pkg/ndjson"
)

// coreAxes are what RequireCore requires.
var coreAxes = []string{"cycles", "instructions", "ipc"}

// SelectAxes reads an axis selection (axes.Select's sets and names) and
// adds what the requirement needs. Counter axes (instructions_sim), which
// no sample carries, come back apart.
func SelectAxes(spec string, require Requirement) (sampled, counters []axes.Axis, err error) {
	switch require {
	case RequireAll:
		spec += ",perf"
	case RequireCore:
		spec += "," + strings.Join(coreAxes, ",")
	}
	spec, counters = axes.SplitCounters(spec)
	sampled, err = axes.Select(spec)
	return sampled, counters, err
}

// required lists the axes the requirement insists on among those selected.
func required(require Requirement, selected []axes.Axis) []string {
	var out []string
	for _, a := range selected {
		switch {
		case require == RequireAll && a.Family == axes.FamilyPerf:
			out = append(out, a.Name)
		case require == RequireCore && slices.Contains(coreAxes, a.Name):
			out = append(out, a.Name)
		}
	}
	return out
}

// perfCheck fails the first unit unless every required axis has a value in
// every sample of it, naming each missing axis with its status and reason.
func (m *measurement) perfCheck(names []string, infos []ndjson.AxisInfo) func([]ndjson.Sample) error {
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
		return errors.New(m.env.Names.Spell("RequirePerf") + fmt.Sprintf(": hardware axes without samples after the first measurement: %s", joinMissing(missing)))
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
