package check

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	goldenpkg "github.com/flybench/flybench/internal/golden"
	"github.com/flybench/flybench/pkg/ndjson"
)

// golden compares got with testdata/name (package golden).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldenpkg.Check(t, name, got)
}

// mixedInput is a regressed paired run, a baseline comparison with an
// allowed difference and a single-case run, with a profile of this class.
func mixedInput(t *testing.T) ([]*Run, *Profile) {
	recs := append(append(regressedRun(), baselineRun()...), singleRun()...)
	p := profile(testClass, change("time", "new", "old", 1.5), change("rss_peak", "new", "old", 0.5), level("time", "b", 1))
	return load(t, recs...), p
}

func render(t *testing.T, all []*Run, p *Profile, format string, color bool) []byte {
	t.Helper()
	res := Judge(all, p, flagged)
	ro := Render{Format: format, Color: color, Options: flagged}
	if p != nil {
		ro.Noise = p.File
	}
	var buf bytes.Buffer
	if err := Write(&buf, res, all, ro); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	mixed, p := mixedInput(t)
	other := profile(otherClass, change("time", "new", "old", 1.5))
	for _, c := range []struct {
		name   string
		all    []*Run
		p      *Profile
		format string
		color  bool
	}{
		{"console.golden", mixed, p, "console", false},
		{"console-color.golden", mixed, p, "console", true},
		{"markdown.golden", mixed, p, "markdown", false},
		{"ndjson.golden", mixed, p, "ndjson", false},
		{"console-pass.golden", load(t, passingRun()...), nil, "console", false},
		{"markdown-pass.golden", load(t, passingRun()...), nil, "markdown", false},
		{"console-other-class.golden", load(t, regressedRun()...), other, "console", false},
		{"markdown-other-class.golden", load(t, regressedRun()...), other, "markdown", false},
		{"markdown-single.golden", load(t, singleRun()...), nil, "markdown", false},
	} {
		t.Run(c.name, func(t *testing.T) { golden(t, c.name, render(t, c.all, c.p, c.format, c.color)) })
	}
}

// TestPlainHasNoEscapes: only colour on asks for ANSI sequences.
func TestPlainHasNoEscapes(t *testing.T) {
	mixed, p := mixedInput(t)
	for _, f := range Formats() {
		if out := render(t, mixed, p, f, false); bytes.Contains(out, []byte("\x1b[")) {
			t.Errorf("%s has an escape sequence", f)
		}
	}
	if out := render(t, mixed, p, "console", true); !bytes.Contains(out, []byte("\x1b[1;31mfail\x1b[0m")) {
		t.Error("colour on: no red fail")
	}
}

// TestRecordsRoundTrip: the ndjson format is the check records, which
// read back as they were judged.
func TestRecordsRoundTrip(t *testing.T) {
	mixed, p := mixedInput(t)
	res := Judge(mixed, p, flagged)
	out := render(t, mixed, p, "ndjson", false)
	r := ndjson.NewReader(bytes.NewReader(out), "out")
	for i := range res.Checks {
		l, err := r.Next()
		if err != nil || l.Type != ndjson.TypeCheck {
			t.Fatalf("record %d: %v %q", i, err, l.Type)
		}
		var ck ndjson.Check
		if err := r.Decode(l, &ck); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(ck.Items) != fmt.Sprint(res.Checks[i].Items) || ck.Outcome != res.Checks[i].Outcome || ck.V != ndjson.Version {
			t.Errorf("record %d differs: %+v", i, ck)
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, Result{}, nil, Render{Format: "pdf"}); err == nil || !strings.Contains(err.Error(), "console, markdown, ndjson") {
		t.Errorf("pdf: %v", err)
	}
}
