package measure

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/flybench/flybench/internal/field"
)

// param is one scanned parameter: its name and values in order.
type param struct {
	name   string
	values []string
}

// scan is a parsed Scan: the parameters in order.
type scan struct {
	params []param
	// reserved is a placeholder name the mode fills itself ("n" in
	// batch mode), left in the commands; "" when none.
	reserved string
}

// The fields that give a scan's parameters and step.
const (
	scanRanges field.Name = "Scan.Ranges"
	scanLists  field.Name = "Scan.Lists"
)

// parseScan turns the parameters as written into their values.
func parseScan(s Scan) (*scan, error) {
	r := &scan{}
	seen := map[string]bool{}
	for _, sp := range s.Params {
		p, err := parseParam(sp, s.Step)
		if err != nil {
			return nil, err
		}
		if seen[p.name] {
			return nil, field.Errorf("Scan", p.name, "parameter %q given twice", p.name)
		}
		seen[p.name] = true
		r.params = append(r.params, p)
	}
	return r, nil
}

var paramName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// parseParam reads NAME=LO..HI (a range) or NAME=A,B,C (a list).
func parseParam(s ScanParam, step string) (param, error) {
	flag, path, want, hyperfine := scanLists, "Scan.Lists", "A,B,C", "NAME A,B,C"
	if s.Range {
		flag, path, want, hyperfine = scanRanges, "Scan.Ranges", "LO..HI", "NAME LO HI"
	}
	name, rest, ok := strings.Cut(s.Text, "=")
	if !ok || !paramName.MatchString(name) {
		return param{}, field.Errorf(path, s.Text, "%s %q: want NAME=%s (or hyperfine's %s) with NAME letters, digits and '_'", flag, s.Text, want, hyperfine)
	}
	if !s.Range {
		values := strings.Split(rest, ",")
		for _, v := range values {
			if v == "" {
				return param{}, field.Errorf(path, s.Text, "%s %q: empty value", flag, s.Text)
			}
		}
		return param{name: name, values: values}, nil
	}
	lo, hi, ok := strings.Cut(rest, "..")
	if !ok {
		return param{}, field.Errorf(path, s.Text, "%s %q: want NAME=LO..HI, e.g. threads=1..4", flag, s.Text)
	}
	values, err := rangeValues(lo, hi, step)
	if err != nil {
		return param{}, field.Errorf(path, s.Text, "%s %q: %v", flag, s.Text, err)
	}
	return param{name: name, values: values}, nil
}

// cases expands the template into one command, name and parameter set
// per point of the product of the parameters, the first parameter
// varying slowest. A count outside least..most is refused in the words
// of the tool.
func (r *scan) cases(template string, least, most int, tool string) (commands, names []string, params []map[string]string, err error) {
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
		return nil, nil, nil, field.Errorf("Scan", r.countText(), "the parameters give %s case(s): %s compares %d to %d; narrow a range or list", r.countText(), tool, least, most)
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
func (r *scan) countText() string {
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
func (r *scan) point(template string, idx []int) (string, string, map[string]string) {
	set := make(map[string]string, len(r.params))
	labels := make([]string, len(r.params))
	for i, p := range r.params {
		v := p.values[idx[i]]
		set[p.name] = v
		labels[i] = p.name + "=" + v
	}
	return substitute(template, set), strings.Join(labels, ", "), set
}

// next advances idx like an odometer, the last parameter fastest.
func (r *scan) next(idx []int) {
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
	for _, m := range placeholderSpans(template) {
		names = append(names, template[m[2]:m[3]])
	}
	return names
}

// placeholderSpans are the submatch indexes of the template's {NAME}s,
// without the shell's ${NAME}s.
func placeholderSpans(template string) [][]int {
	var spans [][]int
	for _, m := range placeholder.FindAllStringSubmatchIndex(template, -1) {
		if m[0] > 0 && template[m[0]-1] == '$' {
			continue
		}
		spans = append(spans, m)
	}
	return spans
}

// checkTemplate refuses a template that uses no parameter given, or
// names one not given.
func (r *scan) checkTemplate(template string) error {
	used := map[string]bool{}
	for _, name := range placeholders(template) {
		used[name] = true
	}
	defined := map[string]bool{}
	for _, p := range r.params {
		defined[p.name] = true
		if !used[p.name] {
			return field.Errorf("Commands", template, "the command %q does not use {%s}: put {%s} where its value goes", template, p.name, p.name)
		}
	}
	for _, name := range placeholders(template) {
		if !defined[name] && name != r.reserved {
			return field.Errorf("Commands", template, "the command %q uses {%s}, which no %s or %s defines", template, name, scanRanges, scanLists)
		}
	}
	return nil
}

// reserveBatchCount refuses a parameter called n in batch mode, where
// {n} is the iteration count, and lets {n} through the template check.
func (r *scan) reserveBatchCount() error {
	for _, p := range r.params {
		if p.name == "n" {
			return field.Errorf("Scan", p.name, "parameter n: {n} is the iteration count in %s mode; call the parameter something else", modeName(ModeBatch))
		}
	}
	r.reserved = "n"
	return nil
}

// usesParams reports whether a hook names a scanned parameter as the
// command does ({NAME}, not a shell's ${NAME}).
func usesParams(text string, params []map[string]string) bool {
	if len(params) == 0 {
		return false
	}
	for _, name := range placeholders(text) {
		if _, ok := params[0][name]; ok {
			return true
		}
	}
	return false
}

// substitute puts each parameter's value where the text names it as a
// placeholder, as written: a shell's ${NAME} stays, and a value is
// pasted unquoted (with a shell, it becomes shell code).
func substitute(text string, set map[string]string) string {
	var b strings.Builder
	last := 0
	for _, m := range placeholderSpans(text) {
		v, ok := set[text[m[2]:m[3]]]
		if !ok {
			continue // {n} in batch mode, filled per batch
		}
		b.WriteString(text[last:m[0]])
		b.WriteString(v)
		last = m[1]
	}
	b.WriteString(text[last:])
	return b.String()
}
