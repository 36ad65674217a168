package wproto

import (
	"bufio"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/custom"
)

const goodHandshake = `flybench-worker 1
case sum
case sum-unrolled
timer source=clock_gettime(CLOCK_MONOTONIC) resolution_ns=1
axis allocs unit=objects/op compare=absolute
axis live unit=bytes direction=diagnostic semantics=absolute normalize=batch
axis t unit=ns semantics=elapsed primary=1 source=rdtsc resolution=0.3
ready
`

func TestHandshake(t *testing.T) {
	h, err := ParseHandshake(goodHandshake)
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != 1 || !reflect.DeepEqual(h.Cases, []string{"sum", "sum-unrolled"}) {
		t.Errorf("version and cases: %+v", h)
	}
	if h.Timer == nil || *h.Timer != (Timer{"clock_gettime(CLOCK_MONOTONIC)", 1}) {
		t.Errorf("timer %+v", h.Timer)
	}
	if len(h.Axes) != 3 || h.Axes[0].Compare != custom.Absolute || h.Axes[1].Direction != axes.Diagnostic ||
		!h.Axes[2].Primary || h.Axes[2].Resolution != 0.3 {
		t.Errorf("axes %+v", h.Axes)
	}
	if got := h.String(); got != goodHandshake {
		t.Errorf("String:\n%s\nwant\n%s", got, goodHandshake)
	}
	minimal := "flybench-worker 1\ncase a\nready\n"
	if h, err := ParseHandshake(minimal); err != nil || h.Timer != nil || h.Axes != nil || h.String() != minimal {
		t.Errorf("minimal: %+v, %v", h, err)
	}
}

func TestHandshakeRefusals(t *testing.T) {
	v := "flybench-worker 1\n"
	for _, tc := range []struct{ text, want string }{
		{"flybench-worker 2\ncase a\nready\n", "the worker speaks flybench-worker version 2; this harness speaks version 1"},
		{"flybench-worker 0\n", "version 0; this harness speaks version 1"},
		{"flybench-worker\n", "malformed protocol line"},
		{"flybench-worker one\n", "malformed protocol line"},
		{"hello\n", "not a flybench worker"},
		{"", "ended before ready"},
		{v + "case a\n", "ended before ready"},
		{v + "case a\nready", "without its LF"},
		{v + "ready\n", "no case declared"},
		{v + "timer source=x resolution_ns=1\n", "no case declared"},
		{v + "case Sum\n", "must begin with a lowercase letter"},
		{v + "case a b\n", "is not key=value"},
		{v + "case a work_units=x\n", "want work_units=N"},
		{v + "case a batching=shared\n", "the only value is equal-time"},
		{v + "case a speed=1\n", "unknown attribute"},
		{v + "case a work_units=1 work_units=2\n", "given twice"},
		{v + "case a\ncase a\n", "declared twice"},
		{v + "case " + strings.Repeat("a", 49) + "\n", "1 to 48 characters"},
		{v + "case a\ncase  b\n", "single spaces"},
		{v + "case a\ncase b \n", "single spaces"},
		{v + "case a\r\n", "carriage return"},
		{v + "case a\tb\n", "control character"},
		{v + "case \xff\n", "not UTF-8"},
		{v + "case a\n\n", "empty line"},
		{v + "case a\nhello\n", "unknown handshake message"},
		{v + "case a\ntimer source=x\n", "want \"timer source"},
		{v + "case a\ntimer source=x resolution_ns=0\n", "positive finite"},
		{v + "case a\ntimer source=x resolution_ns=NaN\n", "positive finite"},
		{v + "case a\ntimer source=x resolution_ns=1 resolution_ns=2\n", "resolution_ns given twice"},
		{v + "case a\ntimer source=x resolution_ns=1 colour=red\n", "unknown timer attribute"},
		{v + "case a\ntimer source=a,b resolution_ns=1\n", "timing source"},
		{v + "case a\ntimer source=x resolution_ns=1\ntimer source=x resolution_ns=1\n", "a second timer"},
		{v + "case a\naxis x unit=u\ntimer source=x resolution_ns=1\n", "a timer after an axis"},
		{v + "case a\naxis x unit=u\ncase b\n", "cases come first"},
		{v + "case a\naxis x unit=u unit=v\n", "unit given twice"},
		{v + "case a\naxis x unit=u direction=up\n", `direction "up"`},
		{v + "case a\naxis x\n", "unit= is required"},
		{v + "case a\naxis\n", "without a name"},
		{v + "case a\naxis x unit=u\naxis x unit=u\n", "declared twice"},
		{v + "case a\naxis cpu unit=u\n", "collides with a built-in"},
		{v + "case a\naxis elapsed_ns unit=u\n", "collides with a built-in"},
		{v + "case a\naxis t unit=ns semantics=elapsed primary=1 source=s resolution=0x1p1\n", "not a decimal"},
		{v + "case a\n" + strings.Repeat("axis a unit=u\n", 1) + "axis b unit=u\naxis c unit=u\naxis d unit=u\n" +
			"axis e unit=u\naxis f unit=u\naxis g unit=u\naxis h unit=u\naxis i unit=u\n", "more than 8 axes"},
		{v + "case a\nready now\n", `"ready" alone`},
		{v + "case a\nready\nextra\n", "text after ready"},
	} {
		_, err := ParseHandshake(tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestReadLine(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader("a\n"+strings.Repeat("x", MaxLine+10)+"\n"), MaxLine)
	if l, err := ReadLine(r); l != "a" || err != nil {
		t.Fatalf("ReadLine = %q, %v", l, err)
	}
	var se *SyntaxError
	if _, err := ReadLine(r); !errors.As(err, &se) || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("long line: %v", err)
	}
	r = bufio.NewReader(strings.NewReader("part"))
	if _, err := ReadLine(r); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("partial line: %v", err)
	}
	if _, err := ReadLine(r); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
}

func TestRequest(t *testing.T) {
	for line, want := range map[string]Request{"run sum 1000": {"sum", 1000}, "run a.b_c-d 1": {"a.b_c-d", 1}} {
		r, quit, err := ParseRequest(line)
		if err != nil || quit || r != want || r.String() != line {
			t.Errorf("%q: %+v %v %v", line, r, quit, err)
		}
	}
	if _, quit, err := ParseRequest("quit"); !quit || err != nil {
		t.Errorf("quit: %v %v", quit, err)
	}
	for line, want := range map[string]string{
		"run sum 0": "positive", "run sum -1": "positive", "run sum +1": "positive", "run sum 1.5": "positive",
		"run sum 99999999999999999999": "does not fit 64 bits", "run Sum 1": "lowercase", "run sum": "run CASE N",
		"run sum 1 2": "run CASE N", "quit now": "unknown request", "go sum 1": "unknown request", "": "empty line",
	} {
		if _, _, err := ParseRequest(line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
}

var testAxes = []custom.Descriptor{
	{Name: "allocs", Unit: "objects/op"}, // cumulative
	{Name: "live", Unit: "bytes", Semantics: custom.AbsoluteV},
	{Name: "t", Unit: "ns", Semantics: custom.Elapsed},
}

func init() {
	for i := range testAxes {
		testAxes[i] = testAxes[i].Defaults()
	}
}

func f64(v float64) *float64 { return &v }

func TestAnswer(t *testing.T) {
	for line, want := range map[string]Done{
		"done sum 1000":                 {Case: "sum", N: 1000},
		"done sum 1000 elapsed_ns=2104": {Case: "sum", N: 1000, ElapsedNS: f64(2104)},
		"done sum 1 elapsed_ns=0":       {Case: "sum", N: 1, ElapsedNS: f64(0)},
		"done sum 1 elapsed_ns=1.5e+03": {Case: "sum", N: 1, ElapsedNS: f64(1500)},
		"done sum 1 elapsed_ns=.5":      {Case: "sum", N: 1, ElapsedNS: f64(0.5)},
		"done sum 2 allocs=10:310 live=4096 t=nan elapsed_ns=7": {Case: "sum", N: 2, ElapsedNS: f64(7),
			Values: map[string]string{"allocs": "10:310", "live": "4096", "t": "nan"}},
		"done sum 2 allocs=-5:-9 live=-Inf t=-1": {Case: "sum", N: 2,
			Values: map[string]string{"allocs": "-5:-9", "live": "-Inf", "t": "-1"}},
	} {
		d, err := ParseAnswer(line, testAxes)
		if err != nil || !reflect.DeepEqual(d, want) {
			t.Errorf("%q: %+v, %v; want %+v", line, d, err, want)
			continue
		}
		if again, err := ParseAnswer(d.String(), testAxes); err != nil || !reflect.DeepEqual(again, d) {
			t.Errorf("%q: String %q does not parse back: %v", line, d.String(), err)
		}
	}
	_, err := ParseAnswer("error sum out of  cheese: x", testAxes)
	var f *Failure
	if !errors.As(err, &f) || f.Case != "sum" || f.Message != "out of  cheese: x" || f.String() != "error sum out of  cheese: x" {
		t.Errorf("error line: %v", err)
	}
}

func TestAnswerRefusals(t *testing.T) {
	for line, want := range map[string]string{
		"done sum 0":                           "positive",
		"done sum":                             "n is missing",
		"done":                                 "done CASE N",
		"done Sum 1":                           "lowercase",
		"done sum 1 elapsed_ns=NaN":            "must be finite",
		"done sum 1 elapsed_ns=+Inf":           "must be finite",
		"done sum 1 elapsed_ns=1e999":          "not finite",
		"done sum 1 elapsed_ns=-3":             "cannot be negative",
		"done sum 1 elapsed_ns=abc":            "not a decimal number",
		"done sum 1 elapsed_ns=0x10":           "not a decimal number",
		"done sum 1 elapsed_ns=":               "not key=value",
		"done sum 1 elapsed_ns=1 elapsed_ns=2": "elapsed_ns given twice",
		"done sum 1 live=1 live=2":             "live given twice",
		"done sum 1 other=1":                   "undeclared axis \"other\"",
		"done sum 1 allocs=5":                  "begin:end",
		"done sum 1 allocs=1.5:2":              "begin:end",
		"done sum 1 live=1:2":                  "not a number",
		"done sum 1 live=x":                    "not a number",
		"done sum 1 7":                         "not key=value",
		"done sum  1":                          "single spaces",
		"error sum":                            "message is missing",
		"error sum ":                           "message is missing",
		"error Sum oops":                       "lowercase",
		"error sum bad\x01":                    "control character",
		"ready":                                "unknown answer",
		"":                                     "empty line",
	} {
		_, err := ParseAnswer(line, testAxes)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want a syntax error with %q", line, err, want)
		}
	}
}

func TestFormatDeclRoundTrip(t *testing.T) {
	for _, line := range []string{
		"axis a unit=u",
		"axis a unit=u direction=higher semantics=absolute normalize=batch compare=absolute scope=s attribution=x",
		"axis t unit=ns semantics=elapsed primary=1 source=tsc resolution=0.25",
	} {
		d, err := parseDecl(line, strings.Fields(line)[1:])
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatDecl(d); got != line {
			t.Errorf("FormatDecl = %q, want %q", got, line)
		}
	}
}

func TestReport(t *testing.T) {
	text := "timer source=date resolution_ns=1\naxis items unit=items/op\ndone 100 elapsed_ns=5000 items=0:100\n"
	r, err := ParseReport([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if r.Timer == nil || len(r.Axes) != 1 || r.Done == nil || r.Done.N != 100 || r.Done.Case != "" ||
		*r.Done.ElapsedNS != 5000 || r.Done.Values["items"] != "0:100" {
		t.Fatalf("report %+v", r)
	}
	if r.String() != text {
		t.Errorf("String %q, want %q", r.String(), text)
	}
	if r, err := ParseReport(nil); err != nil || r.Done != nil {
		t.Errorf("empty report: %+v %v", r, err)
	}
	for text, want := range map[string]string{
		"done 5\ndone 5\n":       "text after the done line",
		"done sum 5\n":           "positive decimal integer",
		"axis x unit=u\n":        "", // declarations without done: allowed, the batch is wall-timed
		"done 5 x=1\n":           "undeclared axis",
		"done 5 elapsed_ns=-1\n": "negative",
		"case a\ndone 5\n":       "unknown report message",
		"done 5":                 "without its LF",
		"axis x unit=u\ntimer source=s resolution_ns=1\n": "a timer after an axis",
	} {
		_, err := ParseReport([]byte(text))
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", text, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func TestHandshakeWorkUnits(t *testing.T) {
	text := "flybench-worker 1\ncase parse work_units=128\ncase noop\nready\n"
	h, err := ParseHandshake(text)
	if err != nil {
		t.Fatal(err)
	}
	if h.WorkUnits["parse"] != 128 || len(h.WorkUnits) != 1 || h.String() != text {
		t.Errorf("work units %v, formatted:\n%s", h.WorkUnits, h.String())
	}
	for _, bad := range []string{"case a work_units=0", "case a work_units=-1", "case a work_units=x", "case a units=3", "case a work_units=1 more"} {
		if _, err := ParseHandshake("flybench-worker 1\n" + bad + "\nready\n"); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestReportWorkUnits(t *testing.T) {
	r, err := ParseReport([]byte("work_units 2.5\ndone 10\n"))
	if err != nil || r.WorkUnits != 2.5 || r.Done == nil || r.String() != "work_units 2.5\ndone 10\n" {
		t.Errorf("%+v, %v", r, err)
	}
	for _, bad := range []string{"work_units 0\ndone 1\n", "work_units x\ndone 1\n", "work_units 1\nwork_units 2\ndone 1\n"} {
		if _, err := ParseReport([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestHandshakeEqualTime(t *testing.T) {
	text := "flybench-worker 1\ncase loop work_units=4 batching=equal-time\ncase alloc\nready\n"
	h, err := ParseHandshake(text)
	if err != nil {
		t.Fatal(err)
	}
	if !h.EqualTime["loop"] || h.EqualTime["alloc"] || h.WorkUnits["loop"] != 4 || h.String() != text {
		t.Errorf("equal time %v, formatted:\n%s", h.EqualTime, h.String())
	}
	if _, err := ParseHandshake("flybench-worker 1\ncase a batching=equal-time work_units=2\nready\n"); err != nil {
		t.Errorf("attributes in either order: %v", err)
	}
}
