package axes

import (
	"slices"
	"strings"
)

// FamilySimulated is the family of counter axes: deterministic counts
// measured once per case outside the timed schedule, in a simulator. They
// are carried by counter records, never by samples, and no named set
// selects them: each costs untimed runs many times slower than the
// command (--metrics names them one by one).
const FamilySimulated = "simulated"

// InstructionsSim is the instruction count of one operation under
// valgrind's cachegrind, for machines without a PMU.
const InstructionsSim = "instructions_sim"

// counterCatalogue lists the counter axes in report order. Scope: the
// operation's processes (every process the command starts is counted);
// attribution exact_window: the count is of those processes alone, from
// their first instruction to their last (process start-up included in
// exec mode, removed by a difference in batch mode).
var counterCatalogue = []Axis{
	{InstructionsSim, "instructions/op", FamilySimulated, ScopeOperationProcess, AttrExactWindow, LowerIsBetter, PerOperation,
		"instructions executed per operation under valgrind --tool=cachegrind --cache-sim=no, counted in untimed runs"},
}

// IsCounter reports whether an axis of family family is a counter axis,
// carried by counter records rather than by samples.
func IsCounter(family string) bool { return family == FamilySimulated }

// LookupCounter returns the counter axis called name.
func LookupCounter(name string) (Axis, bool) {
	i := slices.IndexFunc(counterCatalogue, func(a Axis) bool { return a.Name == name })
	if i < 0 {
		return Axis{}, false
	}
	return counterCatalogue[i], true
}

// SplitCounters takes the counter axes out of a --metrics value: the rest
// of the value, for Select, and the counter axes named, in catalogue
// order.
func SplitCounters(spec string) (string, []Axis) {
	var rest []string
	want := map[string]bool{}
	for _, item := range strings.Split(spec, ",") {
		if _, ok := LookupCounter(strings.TrimSpace(item)); ok {
			want[strings.TrimSpace(item)] = true
			continue
		}
		rest = append(rest, item)
	}
	var out []Axis
	for _, a := range counterCatalogue {
		if want[a.Name] {
			out = append(out, a)
		}
	}
	return strings.Join(rest, ","), out
}
