package measure

import (
	"fmt"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// side is one measured case: a command, and for workers the case in it.
type side struct {
	command string
	name    string // worker case
	worker  int    // which worker process: sides of one command share one
}

// checkMode refuses what the mode cannot run: worker cases outside worker
// mode, and a shell or ignored failures for Go test binaries.
func (p *plan) checkMode() error {
	switch {
	case p.Mode == ModeExec && len(p.Cases) > 0:
		return field.Errorf("Cases", p.Cases, "%s needs %s", field.Name("Cases"), modeName(ModeWorker))
	case p.Mode == ModeGotest && (p.Command.Shell || p.Command.IgnoreFailure):
		return field.Errorf("Mode=gotest", true, "%s runs test binaries directly: drop %s and %s",
			modeName(ModeGotest), field.Name("Command.Shell"), field.Name("Command.IgnoreFailure"))
	}
	return nil
}

// expandCommands refuses a request without commands and expands a scan's
// template into its cases.
func (p *plan) expandCommands() error {
	if len(p.Commands) == 0 {
		return field.Errorf("Commands", nil, "no command given: %s takes %s", p.Tool, countText(p.Least, p.most))
	}
	if p.Scan == nil {
		return nil
	}
	s, err := parseScan(*p.Scan)
	if err != nil {
		return err
	}
	if p.Mode == ModeBatch {
		if err := s.reserveBatchCount(); err != nil {
			return err
		}
	}
	var names []string
	if p.Commands, names, p.params, err = s.cases(p.Commands[0], p.Least, p.most, p.Tool); err != nil {
		return err
	}
	p.caseNames = names
	return nil
}

// resolveSides pairs commands with worker cases and checks their count.
func (p *plan) resolveSides() error {
	var err error
	if p.sides, err = sidesOf(p.Mode, p.Commands, p.Cases); err != nil {
		return err
	}
	if n := len(p.sides); n < p.Least || n > p.most {
		if p.Mode == ModeWorker {
			return field.Errorf("Cases", p.Cases, "%d sides (commands × %s): %s takes %s; one worker with several cases needs a %s for each",
				n, field.Name("Cases"), p.Tool, countText(p.Least, p.most), field.Name("Cases"))
		}
		return field.Errorf("Commands", p.Commands, "%d commands given: %s takes %s", n, p.Tool, countText(p.Least, p.most))
	}
	return nil
}

func countText(least, most int) string {
	if least == most {
		return fmt.Sprintf("exactly %d (quote each command as one argument)", least)
	}
	return fmt.Sprintf("%d to %d (quote each command as one argument)", least, most)
}

// sidesOf pairs commands with worker cases: one command with several
// cases, several commands with one case (or none: the worker's only case),
// or one case per command.
func sidesOf(mode Mode, commands, cases []string) ([]side, error) {
	if mode != ModeWorker {
		out := make([]side, len(commands))
		for i, c := range commands {
			out[i] = side{command: c, worker: i}
		}
		return out, nil
	}
	switch {
	case len(commands) == 1 && len(cases) > 0:
		out := make([]side, len(cases))
		for i, k := range cases {
			out[i] = side{command: commands[0], name: k}
		}
		return out, nil
	case len(cases) <= 1 || len(cases) == len(commands):
		out := make([]side, len(commands))
		for i, c := range commands {
			out[i] = side{command: c, worker: i}
			if len(cases) == 1 {
				out[i].name = cases[0]
			} else if len(cases) > 1 {
				out[i].name = cases[i]
			}
		}
		return out, nil
	}
	return nil, field.Errorf("Cases", cases, "%d commands and %d %s values: give one command with several cases, several commands with one case, or one case per command",
		len(commands), len(cases), field.Name("Cases"))
}

// resolveNames names the cases: the names given, then a scan's names or
// each side's default.
func (p *plan) resolveNames() error {
	defaults := p.caseNames // a scan's
	if defaults == nil {
		defaults = sideNames(p.sides)
	}
	var err error
	p.caseNames, err = nameCases(p.Names, defaults)
	return err
}

// sideNames are the default case names: the command, or for a worker run
// with one command, the case.
func sideNames(sides []side) []string {
	out := make([]string, len(sides))
	oneCommand := len(sides) > 1 && sides[0].worker == sides[len(sides)-1].worker
	for i, s := range sides {
		switch {
		case s.name != "" && oneCommand:
			out[i] = s.name
		case s.name != "" && !sameCase(sides):
			out[i] = s.command + ":" + s.name
		default:
			out[i] = s.command
		}
	}
	return out
}

func sameCase(sides []side) bool {
	for _, s := range sides {
		if s.name != sides[0].name {
			return false
		}
	}
	return true
}

// nameCases pairs the names given with commands; unnamed cases are
// called by their command, numbered when two would share a name.
func nameCases(given, commands []string) ([]string, error) {
	if len(given) > len(commands) {
		return nil, field.Errorf("Names", given, "%d %s values for %d commands", len(given), field.Name("Names"), len(commands))
	}
	names := make([]string, len(commands))
	seen := map[string]bool{}
	for i, cmd := range commands {
		name := cmd
		if i < len(given) {
			name = given[i]
			if strings.TrimSpace(name) == "" || seen[name] {
				return nil, field.Errorf("Names", name, "%s %q: names must be non-empty and distinct", field.Name("Names"), name)
			}
		}
		for n := 2; seen[name]; n++ {
			name = fmt.Sprintf("%s (%d)", cmd, n)
		}
		seen[name] = true
		names[i] = name
	}
	return names, nil
}
