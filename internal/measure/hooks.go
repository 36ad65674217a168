package measure

import (
	"fmt"

	"github.com/flybench/flybench/internal/collect"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// hookSet is one hook: a command for every case, or one per measured
// case in case order (a reference workload has none).
type hookSet struct {
	all  string
	each []string
}

// caseHooks are the four hooks, settled.
type caseHooks struct {
	prepare, conclude, setup, cleanup hookSet
}

// resolveHooks settles the hooks for the measured cases. With a scan, a
// hook given once that uses a parameter's {NAME} becomes one per case
// with the case's values substituted, as in the command.
func (p *plan) resolveHooks() error {
	cases := p.measuredSides()
	for _, h := range []struct {
		path   string
		values []string
		set    *hookSet
	}{
		{"Hooks.Prepare", p.Hooks.Prepare, &p.hooks.prepare}, {"Hooks.Conclude", p.Hooks.Conclude, &p.hooks.conclude},
		{"Hooks.Setup", p.Hooks.Setup, &p.hooks.setup}, {"Hooks.Cleanup", p.Hooks.Cleanup, &p.hooks.cleanup},
	} {
		var err error
		if *h.set, err = hookSetOf(h.path, h.values, cases, p.params); err != nil {
			return err
		}
	}
	return nil
}

func hookSetOf(path string, values []string, cases int, params []map[string]string) (hookSet, error) {
	switch {
	case len(values) == 0:
		return hookSet{}, nil
	case len(values) == 1 && !usesParams(values[0], params):
		return hookSet{all: values[0]}, nil
	case len(values) != 1 && len(values) != cases:
		what := "command"
		if params != nil {
			what = "scanned case"
		}
		return hookSet{}, field.Errorf(path, values, "%d %s values for %d %ss: give one for all, or exactly one per %s, in order",
			len(values), field.Name(path), cases, what, what)
	}
	each := make([]string, cases)
	for i := range each {
		each[i] = values[min(i, len(values)-1)]
		if i < len(params) {
			each[i] = substitute(each[i], params[i])
		}
	}
	return hookSet{each: each}, nil
}

// of is case c's command of the set, or "" when it has none.
func (s hookSet) of(c int) string {
	if s.each == nil {
		return s.all
	}
	if c < len(s.each) {
		return s.each[c]
	}
	return ""
}

// engineHooks turns the hook commands into the engine's hooks. Setup and
// cleanup given per case run in case order; every cleanup runs even when
// one fails, and the first failure is reported.
func (m *measurement) engineHooks() collect.Hooks {
	h := m.hooks
	return collect.Hooks{
		Setup:    m.onceHook(h.setup),
		Prepare:  m.caseHook(h.prepare),
		Conclude: m.caseHook(h.conclude),
		Cleanup:  m.onceHook(h.cleanup),
	}
}

func (m *measurement) caseHook(s hookSet) func(int) error {
	if s.all == "" && s.each == nil {
		return nil
	}
	return func(c int) error {
		text := s.of(c)
		if text == "" {
			return nil
		}
		err := m.runHook(text)
		if err != nil && s.each != nil {
			err = fmt.Errorf("%s: %w", m.cases[c].Name, err)
		}
		return err
	}
}

func (m *measurement) onceHook(s hookSet) func() error {
	if s.each == nil {
		if s.all == "" {
			return nil
		}
		return func() error { return m.runHook(s.all) }
	}
	return func() error {
		var first error
		for c, text := range s.each {
			if err := m.runHook(text); err != nil && first == nil {
				first = fmt.Errorf("%s: %w", m.cases[c].Name, err)
			}
		}
		return first
	}
}

func (m *measurement) runHook(text string) error {
	return runner.Hook(text, m.Command.Shell, m.Command.ShowOutput, m.env.stderrFile(), max(m.Config.Timeout, 0), m.env.Names)
}

// recordHooks puts the hooks in the run record: those for every case in
// its configuration, those per case on the cases.
func (m *measurement) recordHooks(rc *ndjson.Config) {
	h := m.hooks
	rc.Prepare, rc.Conclude, rc.Setup, rc.Cleanup = h.prepare.all, h.conclude.all, h.setup.all, h.cleanup.all
	for c := range m.cases {
		ch := ndjson.CaseHooks{}
		for _, f := range []struct {
			set hookSet
			dst *string
		}{{h.prepare, &ch.Prepare}, {h.conclude, &ch.Conclude}, {h.setup, &ch.Setup}, {h.cleanup, &ch.Cleanup}} {
			if f.set.each != nil {
				*f.dst = f.set.of(c)
			}
		}
		if ch != (ndjson.CaseHooks{}) {
			m.cases[c].Hooks = &ch
		}
	}
}
