package gotest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseSide(t *testing.T) {
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cases := []struct{ arg, bin, bench string }{
		{"old.test:BenchmarkSum", abs("old.test"), "BenchmarkSum"},
		{"./bin/new.test:BenchmarkSum/size=10", abs("bin/new.test"), "BenchmarkSum/size=10"},
		{"/abs/x.test:BenchmarkSub/a_b+c#01", "/abs/x.test", "BenchmarkSub/a_b+c#01"},
		{"/abs/x.test:Benchmark", "/abs/x.test", "Benchmark"},
		{"/abs/x.test:Benchmark_underscore", "/abs/x.test", "Benchmark_underscore"},
		{"/abs/x.test:BenchmarkÜber", "/abs/x.test", "BenchmarkÜber"},
		{"/abs/x.test", "/abs/x.test", ""},
		{"/a:b/x.test:BenchmarkX", "/a:b/x.test", "BenchmarkX"},
		{"/abs/x.test:BenchmarkSub/key:value", "/abs/x.test", "BenchmarkSub/key:value"},
		{"/abs/x.test:BenchmarkSub/n-8", "/abs/x.test", "BenchmarkSub/n-8"},
	}
	for _, c := range cases {
		s, err := ParseSide(c.arg)
		if err != nil || s.Binary != c.bin || s.Bench != c.bench || s.Benchmem || s.Dir != "" || s.CPU != 0 {
			t.Errorf("%q: %+v %v, want %s %s", c.arg, s, err, c.bin, c.bench)
		}
	}
}

func TestParseSideRefusals(t *testing.T) {
	cases := map[string]string{
		"":                             "no test binary",
		":BenchmarkX":                  "no test binary",
		"x.test:":                      "no benchmark after the colon",
		"x.test:Sum":                   "must begin with Benchmark",
		"x.test:BenchmarkSum-8":        "drop the -8, the GOMAXPROCS suffix",
		"x.test:Benchmarksum":          "next letter is not lowercase",
		"x.test:BenchmarkSum/":         "empty element",
		"x.test:BenchmarkSum//x":       "empty element",
		"x.test:BenchmarkSum/a b":      "without spaces",
		"x.test:BenchmarkSum/a\tb":     "without spaces",
		"x.test:BenchmarkSu.m":         "not a Go function name",
		"x.test:BenchmarkSum-x/size=1": "not a Go function name",
	}
	for arg, want := range cases {
		_, err := ParseSide(arg)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", arg, err, want)
		}
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]Spec{
		"no test binary":       {Bench: "BenchmarkX"},
		"no benchmark named":   {Binary: "/x.test"},
		"-test.cpu=-1":         {Binary: "/x.test", Bench: "BenchmarkX", CPU: -1},
		"begin with Benchmark": {Binary: "/x.test", Bench: "Sum"},
	}
	for want, s := range cases {
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", s, err, want)
		}
	}
	if err := (Spec{Binary: "/x.test", Bench: "BenchmarkX", CPU: 2}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestArgv(t *testing.T) {
	s := Spec{Binary: "/b/x.test", Bench: "BenchmarkSum"}
	want := []string{"/b/x.test", "-test.run=^$", "-test.bench=^BenchmarkSum$", "-test.benchtime=1000x", "-test.count=1"}
	if got := s.Argv(1000); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	s = Spec{Binary: "/b/x.test", Bench: "BenchmarkSub/a_b+c#01", Benchmem: true, CPU: 4, Dir: "/src"}
	want = []string{"/b/x.test", "-test.run=^$", `-test.bench=^BenchmarkSub$/^a_b\+c#01$`, "-test.benchtime=7x", "-test.count=1", "-test.benchmem", "-test.cpu=4"}
	if got := s.Argv(7); !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestBenchPattern(t *testing.T) {
	cases := map[string]string{
		"BenchmarkX":                 `^BenchmarkX$`,
		"BenchmarkX/size=10":         `^BenchmarkX$/^size=10$`,
		"BenchmarkX/(a|b)[1]{2}.*?$": `^BenchmarkX$/^\(a\|b\)\[1\]\{2\}\.\*\?\$$`,
		`BenchmarkX/a\x00b`:          `^BenchmarkX$/^a\\x00b$`,
		"BenchmarkX/a/b":             `^BenchmarkX$/^a$/^b$`,
	}
	for name, want := range cases {
		if got := BenchPattern(name); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
}
