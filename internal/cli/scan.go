package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// param is one scanned parameter: its name and values in order.
type param struct {
	name   string
	values []string
}

// scanSpecs collects --parameter-scan and --parameter-list values in
// command-line order; both flags share one, so the first parameter given
// is the first of the product, whichever flag gave it.
type scanSpecs struct {
	specs []scanSpec
}

// scanSpec is one flag value as given: a range (NAME=LO..HI) or a list
// (NAME=A,B,C).
type scanSpec struct {
	isRange bool
	text    string
}

// String is a token no command-line value can equal (it holds a NUL):
// urfave copies a value between a flag's names by setting String() on
// the others, which Set recognizes and ignores.
func (s *scanSpecs) String() string { return "\x00scan" }

// add appends a value unless it is urfave's copy of String().
func (s *scanSpecs) add(v string, isRange bool) {
	if v != s.String() {
		s.specs = append(s.specs, scanSpec{isRange: isRange, text: v})
	}
}

// scanFlags are fb-pair's parameter-scan flags. Their values share one
// scanSpecs so the parameters keep their command-line order.
func scanFlags() []ucli.Flag {
	specs := &scanSpecs{}
	return []ucli.Flag{
		&ucli.GenericFlag{Name: "parameter-scan", Aliases: []string{"P"}, Value: &scanRange{specs}, DefaultText: "none",
			Usage: "NAME=LO..HI: one case per value LO, LO+STEP, ... up to HI, substituted for {NAME} in the one command (hyperfine's -P NAME LO HI, also accepted as the last flags before the template); repeatable, several parameters multiply, the first varying slowest"},
		&ucli.StringFlag{Name: "parameter-step-size", Aliases: []string{"D"}, Value: "1",
			Usage: "STEP of every --parameter-scan range; a decimal step allows decimal bounds (hyperfine's -D)"},
		&ucli.GenericFlag{Name: "parameter-list", Aliases: []string{"L"}, Value: &scanList{specs}, DefaultText: "none",
			Usage: "NAME=A,B,C: one case per value, substituted for {NAME} in the one command (hyperfine's -L NAME A,B,C, also accepted last); repeatable"},
	}
}

// scanRange and scanList append to the shared specs, marking which flag
// gave the value.
type scanRange struct{ *scanSpecs }
type scanList struct{ *scanSpecs }

func (s *scanRange) Set(v string) error { s.add(v, true); return nil }

func (s *scanList) Set(v string) error { s.add(v, false); return nil }

// scanRequest is a parsed scan: the parameters in order and the step.
type scanRequest struct {
	params []param
	// reserved is a placeholder name the mode fills itself ("n" in
	// --batch mode), left in the commands; "" when none.
	reserved string
}

// scanOf reads the scan flags and returns the commands that remain of
// the positional arguments args; nil when no scan was given.
func scanOf(c *ucli.Context, args []string) (*scanRequest, []string, error) {
	g, ok := c.Generic("parameter-scan").(*scanRange)
	if !ok || len(g.specs) == 0 {
		if c.IsSet("parameter-step-size") {
			return nil, args, usageErrorf("--parameter-step-size without --parameter-scan")
		}
		return nil, args, nil
	}
	specs, step, rest, err := hyperfineForm(g.specs, c.String("parameter-step-size"), args)
	if err != nil {
		return nil, args, err
	}
	r, err := parseScan(specs, step)
	return r, rest, err
}

// hyperfineForm completes scan flags written hyperfine's way, -P NAME LO
// HI and -L NAME A,B,C: flag parsing stops at the first positional
// argument, so the last flag's values, and any -P, -L and -D after them,
// are read here from the positional arguments. What remains is the
// commands; a flag after the values (-t 1s) would be taken for a command,
// which the command count then refuses.
func hyperfineForm(specs []scanSpec, step string, args []string) ([]scanSpec, string, []string, error) {
	specs = slices.Clone(specs)
	complete := func(s *scanSpec) {
		if strings.Contains(s.text, "=") {
			return
		}
		need := 1
		if s.isRange {
			need = 2
		}
		if len(args) < need {
			return // parseParam says what is missing
		}
		if s.isRange {
			s.text += "=" + args[0] + ".." + args[1]
		} else {
			s.text += "=" + args[0]
		}
		args = args[need:]
	}
	complete(&specs[len(specs)-1])
	for len(args) > 0 {
		switch args[0] {
		case "-P", "--parameter-scan", "-L", "--parameter-list":
			if len(args) < 2 {
				return nil, "", nil, usageErrorf("%s without a value", args[0])
			}
			s := scanSpec{isRange: args[0] == "-P" || args[0] == "--parameter-scan", text: args[1]}
			args = args[2:]
			complete(&s)
			specs = append(specs, s)
		case "-D", "--parameter-step-size":
			if len(args) < 2 {
				return nil, "", nil, usageErrorf("%s without a value", args[0])
			}
			step, args = args[1], args[2:]
		case "--":
			return specs, step, args[1:], nil
		default:
			return specs, step, args, nil
		}
	}
	return specs, step, args, nil
}

// parseScan turns the flag values into parameters.
func parseScan(specs []scanSpec, step string) (*scanRequest, error) {
	r := &scanRequest{}
	seen := map[string]bool{}
	for _, s := range specs {
		p, err := parseParam(s, step)
		if err != nil {
			return nil, err
		}
		if seen[p.name] {
			return nil, usageErrorf("parameter %q given twice", p.name)
		}
		seen[p.name] = true
		r.params = append(r.params, p)
	}
	return r, nil
}

var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// parseParam reads NAME=LO..HI (a range) or NAME=A,B,C (a list).
func parseParam(s scanSpec, step string) (param, error) {
	flag := "--parameter-list"
	if s.isRange {
		flag = "--parameter-scan"
	}
	name, rest, ok := strings.Cut(s.text, "=")
	if !ok || !paramName.MatchString(name) {
		return param{}, usageErrorf("%s %q: want NAME=%s (or hyperfine's %s) with NAME letters, digits and '_'", flag, s.text,
			map[bool]string{true: "LO..HI", false: "A,B,C"}[s.isRange], map[bool]string{true: "NAME LO HI", false: "NAME A,B,C"}[s.isRange])
	}
	if !s.isRange {
		values := strings.Split(rest, ",")
		for _, v := range values {
			if v == "" {
				return param{}, usageErrorf("--parameter-list %q: empty value", s.text)
			}
		}
		return param{name: name, values: values}, nil
	}
	lo, hi, ok := strings.Cut(rest, "..")
	if !ok {
		return param{}, usageErrorf("--parameter-scan %q: want NAME=LO..HI, e.g. threads=1..4", s.text)
	}
	values, err := rangeValues(lo, hi, step)
	if err != nil {
		return param{}, usageErrorf("--parameter-scan %q: %v", s.text, err)
	}
	return param{name: name, values: values}, nil
}

// maxScanValues bounds one range before the case count is checked, so a
// huge range is refused without being listed.
const maxScanValues = 1000

// scanCases expands the template into one command, name and parameter
// set per point of the product of the parameters, the first parameter
// varying slowest. A count outside least..most is a usage error.
func (r *scanRequest) scanCases(template string, least, most int) (commands, names []string, params []map[string]string, err error) {
	if err := r.checkTemplate(template); err != nil {
		return nil, nil, nil, err
	}
	count := 1
	for _, p := range r.params {
		count *= len(p.values)
		if count > most {
			break
		}
	}
	if count > most || count < least {
		return nil, nil, nil, usageErrorf("the parameters give %s case(s): fb-pair compares %d to %d; narrow a range or list", r.countText(), least, most)
	}
	idx := make([]int, len(r.params))
	for range count {
		cmd, name, set := r.point(template, idx)
		commands, names, params = append(commands, cmd), append(names, name), append(params, set)
		r.next(idx)
	}
	return commands, names, params, nil
}

// countText is the product of the value counts, e.g. "20 (4 × 5)".
func (r *scanRequest) countText() string {
	n, parts := 1, make([]string, len(r.params))
	for i, p := range r.params {
		n *= len(p.values)
		parts[i] = fmt.Sprint(len(p.values))
	}
	if len(parts) == 1 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d (%s)", n, strings.Join(parts, " × "))
}

// point is the case at the value indexes idx.
func (r *scanRequest) point(template string, idx []int) (string, string, map[string]string) {
	set := make(map[string]string, len(r.params))
	labels := make([]string, len(r.params))
	pairs := make([]string, 0, 2*len(r.params))
	for i, p := range r.params {
		v := p.values[idx[i]]
		set[p.name] = v
		labels[i] = p.name + "=" + v
		pairs = append(pairs, "{"+p.name+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(template), strings.Join(labels, ", "), set
}

// next advances idx like an odometer, the last parameter fastest.
func (r *scanRequest) next(idx []int) {
	for i := len(idx) - 1; i >= 0; i-- {
		idx[i]++
		if idx[i] < len(r.params[i].values) {
			return
		}
		idx[i] = 0
	}
}

var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// placeholders are the names of the template's {NAME}s in order; one
// preceded by '$' (a shell's ${NAME}) is not a placeholder.
func placeholders(template string) []string {
	var names []string
	for _, m := range placeholder.FindAllStringSubmatchIndex(template, -1) {
		if m[0] > 0 && template[m[0]-1] == '$' {
			continue
		}
		names = append(names, template[m[2]:m[3]])
	}
	return names
}

// checkTemplate refuses a template that uses no parameter given, or
// names one not given.
func (r *scanRequest) checkTemplate(template string) error {
	used := map[string]bool{}
	for _, name := range placeholders(template) {
		used[name] = true
	}
	defined := map[string]bool{}
	for _, p := range r.params {
		defined[p.name] = true
		if !used[p.name] {
			return usageErrorf("the command %q does not use {%s}: put {%s} where its value goes", template, p.name, p.name)
		}
	}
	for _, name := range placeholders(template) {
		if !defined[name] && name != r.reserved {
			return usageErrorf("the command %q uses {%s}, which no --parameter-scan or --parameter-list defines", template, name)
		}
	}
	return nil
}

// expandScan turns the one command template of a scan into its cases'
// commands, names and parameter values; without a scan it returns the
// commands as given.
func expandScan(c *ucli.Context, mode string, commands []string, least, most int) ([]string, []string, []map[string]string, error) {
	scan, commands, err := scanOf(c, commands)
	if err != nil || scan == nil {
		return commands, nil, nil, err
	}
	if len(commands) != 1 {
		return nil, nil, nil, usageErrorf("%d commands given with --parameter-scan/--parameter-list: give exactly one command template using {NAME}", len(commands))
	}
	if mode == "worker" {
		return nil, nil, nil, usageErrorf("--parameter-scan/--parameter-list expand commands: not available in --mode worker; use --case")
	}
	if mode == "batch" {
		if err := scan.reserveBatchCount(); err != nil {
			return nil, nil, nil, err
		}
	}
	return scan.scanCases(commands[0], least, most)
}

// reserveBatchCount refuses a parameter called n in --batch mode, where
// {n} is the iteration count, and lets {n} through the template check.
func (r *scanRequest) reserveBatchCount() error {
	for _, p := range r.params {
		if p.name == "n" {
			return usageErrorf("parameter n: {n} is the iteration count in --batch mode; call the parameter something else")
		}
	}
	r.reserved = "n"
	return nil
}

// orDefault is names, or def when names is nil.
func orDefault(names, def []string) []string {
	if names == nil {
		return def
	}
	return names
}

// markParams records each scanned case's parameter values.
func (m *measurement) markParams() {
	for i, set := range m.params {
		m.cases[i].Params = set
	}
}
