package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"
)

func scanFrom(t *testing.T, step string, specs ...scanSpec) *scanRequest {
	t.Helper()
	r, err := parseScan(specs, step)
	if err != nil {
		t.Fatalf("parseScan(%v): %v", specs, err)
	}
	return r
}

func TestScanProductOrderNamesAndParams(t *testing.T) {
	r := scanFrom(t, "1", scanSpec{text: "compiler=gcc,clang"}, scanSpec{isRange: true, text: "opt=1..3"})
	cmds, names, params, err := r.scanCases("{compiler} -O{opt} main.c", 2, 16)
	if err != nil {
		t.Fatal(err)
	}
	wantCmds := []string{"gcc -O1 main.c", "gcc -O2 main.c", "gcc -O3 main.c", "clang -O1 main.c", "clang -O2 main.c", "clang -O3 main.c"}
	if !reflect.DeepEqual(cmds, wantCmds) {
		t.Errorf("commands %q, want %q (first parameter slowest)", cmds, wantCmds)
	}
	if names[0] != "compiler=gcc, opt=1" || names[5] != "compiler=clang, opt=3" {
		t.Errorf("names %q", names)
	}
	if want := map[string]string{"compiler": "clang", "opt": "2"}; !reflect.DeepEqual(params[4], want) {
		t.Errorf("params[4] %v, want %v", params[4], want)
	}
}

func TestScanRanges(t *testing.T) {
	for _, tc := range []struct {
		lo, hi, step string
		want         []string
	}{
		{"1", "4", "1", []string{"1", "2", "3", "4"}},
		{"1", "8", "3", []string{"1", "4", "7"}},
		{"-2", "0", "1", []string{"-2", "-1", "0"}},
		{"0", "1", "0.25", []string{"0.00", "0.25", "0.50", "0.75", "1.00"}},
		{"0.1", "0.3", "0.1", []string{"0.1", "0.2", "0.3"}},
	} {
		got, err := rangeValues(tc.lo, tc.hi, tc.step)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s..%s step %s: %q, %v; want %q", tc.lo, tc.hi, tc.step, got, err, tc.want)
		}
	}
	for _, bad := range [][3]string{{"3", "1", "1"}, {"a", "2", "1"}, {"1", "2", "0"}, {"1", "2", "-1"}, {"1", "2", "x"}, {"0", "1e9", "1"}} {
		if got, err := rangeValues(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("%v accepted: %q", bad, got)
		}
	}
}

func TestScanRefusals(t *testing.T) {
	for _, tc := range []struct {
		name     string
		specs    []scanSpec
		template string
		want     string
	}{
		{"too many", []scanSpec{{isRange: true, text: "a=1..4"}, {text: "b=w,x,y,z,v"}}, "{a}{b}", "20 (4 × 5) case(s)"},
		{"one case", []scanSpec{{text: "a=x"}}, "{a}", "give 1 case(s)"},
		{"unused", []scanSpec{{isRange: true, text: "a=1..2"}}, "spin -n 3", "does not use {a}"},
		{"undefined", []scanSpec{{isRange: true, text: "a=1..2"}}, "spin {a} {b}", "uses {b}, which no"},
	} {
		r := scanFrom(t, "1", tc.specs...)
		_, _, _, err := r.scanCases(tc.template, 2, 16)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != ExitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want exit 2 with %q", tc.name, err, tc.want)
		}
	}
	for _, specs := range [][]scanSpec{
		{{isRange: true, text: "a=1-3"}},
		{{text: "a b=1,2"}},
		{{text: "a=1,,2"}},
		{{text: "a=1,2"}, {isRange: true, text: "a=1..2"}},
	} {
		if _, err := parseScan(specs, "1"); err == nil {
			t.Errorf("%v accepted", specs)
		}
	}
}

func TestScanLeavesShellBracesAndBatchCount(t *testing.T) {
	r := scanFrom(t, "1", scanSpec{text: "x=a,b"})
	cmds, _, _, err := r.scanCases("echo ${HOME} {x}", 2, 16)
	if err != nil || cmds[1] != "echo ${HOME} b" {
		t.Fatalf("%q, %v", cmds, err)
	}
	if err := r.reserveBatchCount(); err != nil {
		t.Fatal(err)
	}
	if cmds, _, _, err = r.scanCases("run -k {n} {x}", 2, 16); err != nil || cmds[0] != "run -k {n} a" {
		t.Fatalf("batch: %q, %v", cmds, err)
	}
	if err := scanFrom(t, "1", scanSpec{text: "n=1,2"}).reserveBatchCount(); err == nil {
		t.Error("parameter n accepted in batch mode")
	}
}

// TestScanFlagsKeepCommandLineOrder runs fb-pair's flag parsing: -P and
// -L share one order, a list's commas are not split into flag values, and
// urfave's copying between a flag's names adds nothing.
func TestScanFlagsKeepCommandLineOrder(t *testing.T) {
	var got *scanRequest
	app := pairApp(Env{})
	app.Action = func(c *ucli.Context) error {
		var err error
		got, _, err = scanOf(c, c.Args().Slice())
		return err
	}
	if err := app.Run([]string{"fb-pair", "-L", "c=gcc,clang", "--parameter-scan", "t=1..3", "-D", "2", "--", "x"}); err != nil {
		t.Fatal(err)
	}
	want := []param{{"c", []string{"gcc", "clang"}}, {"t", []string{"1", "3"}}}
	if got == nil || !reflect.DeepEqual(got.params, want) {
		t.Fatalf("params %+v, want %+v", got, want)
	}
}

// TestScanHyperfineForm: -P NAME LO HI and -L NAME A,B,C as hyperfine
// takes them, with -D and more scan flags after the values, give the
// same parameters as NAME=LO..HI and NAME=A,B,C, and leave the command.
func TestScanHyperfineForm(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []param
		rest []string
	}{
		{[]string{"-P", "t", "1", "3", "make -j {t}"}, []param{{"t", []string{"1", "2", "3"}}}, []string{"make -j {t}"}},
		{[]string{"-P", "t", "2", "8", "-D", "3", "--", "x {t}"}, []param{{"t", []string{"2", "5", "8"}}}, []string{"x {t}"}},
		{[]string{"-L", "c", "gcc,clang", "-P", "t", "1", "2", "{c} -j{t}"},
			[]param{{"c", []string{"gcc", "clang"}}, {"t", []string{"1", "2"}}}, []string{"{c} -j{t}"}},
		{[]string{"-P", "t=1..2", "-L", "c", "a,b", "{c}{t}"},
			[]param{{"t", []string{"1", "2"}}, {"c", []string{"a", "b"}}}, []string{"{c}{t}"}},
	} {
		var got *scanRequest
		var rest []string
		app := pairApp(Env{})
		app.Action = func(c *ucli.Context) error {
			var err error
			got, rest, err = scanOf(c, c.Args().Slice())
			return err
		}
		if err := app.Run(append([]string{"fb-pair"}, tc.args...)); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got == nil || !reflect.DeepEqual(got.params, tc.want) || !reflect.DeepEqual(rest, tc.rest) {
			t.Errorf("%q: params %+v, commands %q; want %+v, %q", tc.args, got, rest, tc.want, tc.rest)
		}
	}
	// Too few values: the parameter is refused, not a value taken from
	// the command.
	app := pairApp(Env{})
	app.Action = func(c *ucli.Context) error { _, _, err := scanOf(c, c.Args().Slice()); return err }
	if err := app.Run([]string{"fb-pair", "-P", "t", "1"}); err == nil || !strings.Contains(err.Error(), "NAME LO HI") {
		t.Errorf("-P t 1: %v", err)
	}
}
