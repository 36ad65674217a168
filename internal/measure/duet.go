package measure

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/claim"
	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/placement"
	"github.com/flybench/flybench/pkg/ndjson"
)

// checkDuet refuses what a duet run cannot do: its own placement is the
// two CPUs, so --cpu has no place; and an observer reads one batch at a
// time, so only the time axes ride a duet's schedule.
func (p *plan) checkDuet() error {
	if !p.Duet {
		if len(p.DuetCPUs) > 0 {
			return field.Errorf("DuetCPUs", p.DuetCPUs, "%s needs %s", field.Name("DuetCPUs"), field.Name("Duet"))
		}
		return nil
	}
	if p.Placement.CPU >= 0 {
		return field.Errorf("Placement.CPU", p.Placement.CPU, "%s with %s: a duet places its two sides itself; choose its CPUs with %s",
			field.Name("Placement.CPU"), field.Name("Duet"), field.Name("DuetCPUs"))
	}
	var other []string
	for _, a := range p.Axes {
		if a.Family != axes.FamilyTime {
			other = append(other, a.Name)
		}
	}
	if len(other) > 0 {
		return field.Errorf("Axes", strings.Join(other, ","), "%s with %s: the resource axes (%s) are observed one batch at a time, and a duet runs two at once; measure them in adjacent pairs",
			field.Name("Axes"), field.Name("Duet"), strings.Join(other, ", ")).
			WithHint("a duet records the time axes only")
	}
	return nil
}

// duet picks the duet's two CPUs, checks that an inherited claim covers
// both, records them and returns the engine's placement: each lane's
// thread bound to its CPU, and in worker mode each batch's worker moved
// to the CPU of its lane.
func (m *measurement) duet() (*collect.Duet, error) {
	allowed, err := placement.Allowed()
	if err != nil {
		return nil, m.errorf("Duet", true, "%s: %v", m.spell("Duet"), err)
	}
	sysfs := os.DirFS("/sys")
	pair, err := placement.PickPair(allowed, m.DuetCPUs, func(c int) []int { return placement.Siblings(sysfs, c) })
	if err != nil {
		return nil, m.errorf("Duet", true, "%s: %v", m.spell("Duet"), err)
	}
	if err := m.duetClaimed(pair.CPUs); err != nil {
		return nil, err
	}
	if m.Mode == ModeWorker && m.pids[0] == m.pids[1] {
		return nil, m.errorf("Duet", true, "%s: both sides are cases of one worker process, which cannot run two requests at once; give the command once per side", m.spell("Duet"))
	}
	if pair.SMTSiblings {
		fmt.Fprintf(m.env.Stderr, "%s: warning: duet on cpus %d and %d, SMT siblings of one core: the sides share its execution units as well as its caches\n", m.Tool, pair.CPUs[0], pair.CPUs[1])
	}
	m.record.Config.Duet = &ndjson.Duet{CPUs: pair.CPUs, SMTSiblings: pair.SMTSiblings, Swap: "every pair"}
	d := &collect.Duet{CPUs: pair.CPUs, Bind: func(cpu int) error { return strict(placement.Pin(cpu, sysfs)) }}
	if m.Mode == ModeWorker {
		d.Place = func(c, cpu int) error { return strict(placement.PinProcess(m.pids[c], cpu, sysfs)) }
	}
	return d, nil
}

// strict is a placement's refusal as an error.
func strict(r placement.Result) error {
	if r.Outcome != ndjson.PlacementStrict {
		return fmt.Errorf("%s", r.Reason)
	}
	return nil
}

// duetClaimed refuses a duet outside the claim this tool inherited from
// fb-lock: a per-CPU claim must hold both CPUs, or another benchmark
// could be told the other one is free.
func (m *measurement) duetClaimed(cpus [2]int) error {
	held, ok, err := claim.Inherited(m.env.Getenv)
	if err != nil || !ok || held == nil {
		return nil // no claim, an unreadable list (ProtectFDs reported it), or the whole machine
	}
	var missing []string
	for _, c := range cpus {
		if !slices.Contains(held, c) {
			missing = append(missing, fmt.Sprint(c))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return m.errorf("Duet", true, "%s runs on cpus %d and %d, and the inherited claim holds only cpus %s", m.spell("Duet"), cpus[0], cpus[1], claim.FormatCPUs(held)).
		WithHint("claim both: fb-lock %s %d,%d fb-pair %s ...", field.Name(claim.FieldCPUs), cpus[0], cpus[1], field.Name("Duet"))
}
