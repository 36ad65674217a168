package measure

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/field"
)

func scanFrom(t *testing.T, step string, specs ...ScanParam) *scan {
	t.Helper()
	r, err := parseScan(Scan{Params: specs, Step: step})
	if err != nil {
		t.Fatalf("parseScan(%v): %v", specs, err)
	}
	return r
}

func TestScanProductOrderNamesAndParams(t *testing.T) {
	r := scanFrom(t, "1", ScanParam{Text: "compiler=gcc,clang"}, ScanParam{Range: true, Text: "opt=1..3"})
	cmds, names, params, err := r.cases("{compiler} -O{opt} main.c", 2, 16, "fb-pair")
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
		specs    []ScanParam
		template string
		want     string
	}{
		{"too many", []ScanParam{{Range: true, Text: "a=1..4"}, {Text: "b=w,x,y,z,v"}}, "{a}{b}", "20 (4 × 5) case(s)"},
		{"one case", []ScanParam{{Text: "a=x"}}, "{a}", "give 1 case(s)"},
		{"unused", []ScanParam{{Range: true, Text: "a=1..2"}}, "spin -n 3", "does not use {a}"},
		{"undefined", []ScanParam{{Range: true, Text: "a=1..2"}}, "spin {a} {b}", "uses {b}, which no Scan.Ranges or Scan.Lists"},
	} {
		r := scanFrom(t, "1", tc.specs...)
		_, _, _, err := r.cases(tc.template, 2, 16, "fb-pair")
		var fe *field.Error
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want a field error with %q", tc.name, err, tc.want)
		}
	}
	for _, specs := range [][]ScanParam{
		{{Range: true, Text: "a=1-3"}},
		{{Text: "a b=1,2"}},
		{{Text: "a=1,,2"}},
		{{Text: "a=1,2"}, {Range: true, Text: "a=1..2"}},
	} {
		if _, err := parseScan(Scan{Params: specs, Step: "1"}); err == nil {
			t.Errorf("%v accepted", specs)
		}
	}
}

func TestScanLeavesShellBracesAndBatchCount(t *testing.T) {
	r := scanFrom(t, "1", ScanParam{Text: "x=a,b"})
	cmds, _, _, err := r.cases("echo ${HOME} {x}", 2, 16, "fb-pair")
	if err != nil || cmds[1] != "echo ${HOME} b" {
		t.Fatalf("%q, %v", cmds, err)
	}
	// A shell variable named like the parameter is left alone too (issue 21 item 6).
	cmds, _, _, err = r.cases(`x=S; echo "${x} {x}"`, 2, 16, "fb-pair")
	if err != nil || cmds[0] != `x=S; echo "${x} a"` || cmds[1] != `x=S; echo "${x} b"` {
		t.Fatalf("${x} beside {x}: %q, %v", cmds, err)
	}
	if err := r.reserveBatchCount(); err != nil {
		t.Fatal(err)
	}
	if cmds, _, _, err = r.cases("run -k {n} {x}", 2, 16, "fb-pair"); err != nil || cmds[0] != "run -k {n} a" {
		t.Fatalf("batch: %q, %v", cmds, err)
	}
	if err := scanFrom(t, "1", ScanParam{Text: "n=1,2"}).reserveBatchCount(); err == nil {
		t.Error("parameter n accepted in batch mode")
	}
}

// TestHooksInAScan: a hook given once that uses a parameter becomes one
// per scanned case with its value; one without stays for every case; one
// per scanned case is accepted, and another count is refused.
func TestHooksInAScan(t *testing.T) {
	params := []map[string]string{{"t": "1"}, {"t": "2"}, {"t": "3"}}
	s, err := hookSetOf("Hooks.Setup", []string{"make -j{t}"}, 3, params)
	if err != nil || !reflect.DeepEqual(s.each, []string{"make -j1", "make -j2", "make -j3"}) {
		t.Fatalf("template hook: %+v, %v", s, err)
	}
	if s, err = hookSetOf("Hooks.Setup", []string{"make ${t}"}, 3, params); err != nil || s.all != "make ${t}" {
		t.Fatalf("hook without a parameter: %+v, %v", s, err)
	}
	if s, err = hookSetOf("Hooks.Setup", []string{"make ${t} -j{t}"}, 3, params); err != nil || s.each[1] != "make ${t} -j2" {
		t.Fatalf("hook with ${t} and {t}: %+v, %v", s, err)
	}
	if s, err = hookSetOf("Hooks.Setup", []string{"a", "b {t}", "c"}, 3, params); err != nil || !reflect.DeepEqual(s.each, []string{"a", "b 2", "c"}) {
		t.Fatalf("one per case: %+v, %v", s, err)
	}
	if _, err = hookSetOf("Hooks.Setup", []string{"a", "b"}, 3, params); err == nil || !strings.Contains(err.Error(), "2 Hooks.Setup values for 3 scanned cases") {
		t.Fatalf("wrong count: %v", err)
	}
	if got := (hookSet{each: []string{"a", "b"}}).of(2); got != "" {
		t.Fatalf("the reference workload got hook %q", got)
	}
}
