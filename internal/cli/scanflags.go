package cli

import (
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/measure"
)

// scanSpecs collects --parameter-scan and --parameter-list values in
// command-line order; both flags share one, so the first parameter given
// is the first of the product, whichever flag gave it.
type scanSpecs struct {
	specs []measure.ScanParam
}

// String is a token no command-line value can equal (it holds a NUL):
// urfave copies a value between a flag's names by setting String() on
// the others, which Set recognizes and ignores.
func (s *scanSpecs) String() string { return "\x00scan" }

// add appends a value unless it is urfave's copy of String().
func (s *scanSpecs) add(v string, isRange bool) {
	if v != s.String() {
		s.specs = append(s.specs, measure.ScanParam{Range: isRange, Text: v})
	}
}

// scanRange and scanList append to the shared specs, marking which flag
// gave the value.
type scanRange struct{ *scanSpecs }
type scanList struct{ *scanSpecs }

func (s *scanRange) Set(v string) error { s.add(v, true); return nil }

func (s *scanList) Set(v string) error { s.add(v, false); return nil }

// scanOf reads the scan flags and the commands that remain of the
// positional arguments args: the one template of a scan, whose
// parameters the request carries; nil without a scan or a command.
func scanOf(c *ucli.Context, mode measure.Mode, args []string) ([]string, *measure.Scan, error) {
	g, ok := c.Generic("parameter-scan").(*scanRange)
	if !ok || len(g.specs) == 0 {
		if c.IsSet("parameter-step-size") {
			return nil, nil, usageErrorf("--parameter-step-size without --parameter-scan")
		}
		return args, nil, nil
	}
	if len(args) == 0 {
		return args, nil, nil // no command given: the request says so
	}
	specs, step, rest, err := hyperfineForm(g.specs, c.String("parameter-step-size"), args)
	switch {
	case err != nil:
		return nil, nil, err
	case len(rest) != 1:
		return nil, nil, usageErrorf("%d commands given with --parameter-scan/--parameter-list: give exactly one command template using {NAME}", len(rest))
	case mode == measure.ModeWorker:
		return nil, nil, usageErrorf("--parameter-scan/--parameter-list expand commands: not available in --mode worker; use --case")
	}
	return rest, &measure.Scan{Params: specs, Step: step}, nil
}

// hyperfineForm completes scan flags written hyperfine's way, -P NAME LO
// HI and -L NAME A,B,C: flag parsing stops at the first positional
// argument, so the last flag's values, and any -P, -L and -D after them,
// are read here from the positional arguments. What remains is the
// commands; a flag after the values (-t 1s) would be taken for a command,
// which the command count then refuses.
func hyperfineForm(specs []measure.ScanParam, step string, args []string) ([]measure.ScanParam, string, []string, error) {
	specs = slices.Clone(specs)
	complete := func(s *measure.ScanParam) {
		if strings.Contains(s.Text, "=") {
			return
		}
		need := 1
		if s.Range {
			need = 2
		}
		if len(args) < need {
			return // the parameter's check says what is missing
		}
		if s.Range {
			s.Text += "=" + args[0] + ".." + args[1]
		} else {
			s.Text += "=" + args[0]
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
			s := measure.ScanParam{Range: args[0] == "-P" || args[0] == "--parameter-scan", Text: args[1]}
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
