package cli

import (
	"reflect"
	"strings"
	"testing"

	ucli "github.com/urfave/cli/v2"

	"github.com/flybench/flybench/internal/measure"
)

// TestScanFlagsKeepCommandLineOrder runs fb-pair's flag parsing: -P and
// -L share one order, a list's commas are not split into flag values, and
// urfave's copying between a flag's names adds nothing.
func TestScanFlagsKeepCommandLineOrder(t *testing.T) {
	var got *measure.Scan
	app := pairApp(Env{})
	app.Action = func(c *ucli.Context) error {
		var err error
		_, got, err = scanOf(c, measure.ModeExec, c.Args().Slice())
		return err
	}
	if err := app.Run([]string{"fb-pair", "-L", "c=gcc,clang", "--parameter-scan", "t=1..3", "-D", "2", "--", "x"}); err != nil {
		t.Fatal(err)
	}
	want := &measure.Scan{Params: []measure.ScanParam{{Text: "c=gcc,clang"}, {Range: true, Text: "t=1..3"}}, Step: "2"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scan %+v, want %+v", got, want)
	}
}

// TestScanHyperfineForm: -P NAME LO HI and -L NAME A,B,C as hyperfine
// takes them, with -D and more scan flags after the values, give the
// same parameters as NAME=LO..HI and NAME=A,B,C, and leave the command.
func TestScanHyperfineForm(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []measure.ScanParam
		step string
		rest []string
	}{
		{[]string{"-P", "t", "1", "3", "make -j {t}"}, []measure.ScanParam{{Range: true, Text: "t=1..3"}}, "1", []string{"make -j {t}"}},
		{[]string{"-P", "t", "2", "8", "-D", "3", "--", "x {t}"}, []measure.ScanParam{{Range: true, Text: "t=2..8"}}, "3", []string{"x {t}"}},
		{[]string{"-L", "c", "gcc,clang", "-P", "t", "1", "2", "{c} -j{t}"},
			[]measure.ScanParam{{Text: "c=gcc,clang"}, {Range: true, Text: "t=1..2"}}, "1", []string{"{c} -j{t}"}},
		{[]string{"-P", "t=1..2", "-L", "c", "a,b", "{c}{t}"},
			[]measure.ScanParam{{Range: true, Text: "t=1..2"}, {Text: "c=a,b"}}, "1", []string{"{c}{t}"}},
	} {
		var got *measure.Scan
		var rest []string
		app := pairApp(Env{})
		app.Action = func(c *ucli.Context) error {
			var err error
			rest, got, err = scanOf(c, measure.ModeExec, c.Args().Slice())
			return err
		}
		if err := app.Run(append([]string{"fb-pair"}, tc.args...)); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if got == nil || !reflect.DeepEqual(got.Params, tc.want) || got.Step != tc.step || !reflect.DeepEqual(rest, tc.rest) {
			t.Errorf("%q: scan %+v, commands %q; want %+v step %s, %q", tc.args, got, rest, tc.want, tc.step, tc.rest)
		}
	}
	// Too few values: the parameter is refused, not a value taken from
	// the command.
	code, _, stderr := runTool("fb-pair", "-P", "t", "1")
	if code != ExitUsage || !strings.Contains(stderr, `--parameter-scan "t": want NAME=LO..HI (or hyperfine's NAME LO HI)`) {
		t.Errorf("-P t 1: exit %d, %s", code, stderr)
	}
}
