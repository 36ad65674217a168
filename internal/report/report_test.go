package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
)

// TestFixtureStream keeps testdata/fixture.ndjson, a realistic analyzed
// stream, in step with the Go fixture it is written from.
func TestFixtureStream(t *testing.T) {
	golden(t, "fixture.ndjson", fixtureStream(t))
	golden(t, "fixture-axes.ndjson", axesFixtureStream(t))
	golden(t, "fixture-env.ndjson", envFixtureStream(t))
}

func render(t *testing.T, runs []*model.Run, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, runs, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	runs, axed, env := fixtureRuns(t), axesFixtureRuns(t), envFixtureRuns(t)
	tests := []struct {
		name string
		runs []*model.Run
		opt  Options
	}{
		{"console", runs, Options{}},
		{"console-color", runs[:2], Options{Color: true}},
		{"console-details", runs[1:2], Options{Format: "console", Details: true}},
		{"csv", runs, Options{Format: "csv"}},
		{"json", runs, Options{Format: "json"}},
		{"markdown", runs, Options{Format: "markdown"}},
		{"console-axes", axed, Options{}},
		{"console-axes-color", axed, Options{Color: true}},
		{"console-axes-details", axed[1:], Options{Details: true}},
		{"csv-axes", axed, Options{Format: "csv"}},
		{"long-csv", append(runs, axed...), Options{Format: "long-csv"}},
		{"json-axes", axed, Options{Format: "json"}},
		{"markdown-axes", axed, Options{Format: "markdown"}},
		{"console-env", env, Options{}},
		{"console-env-color", env, Options{Color: true}},
		{"csv-env", env, Options{Format: "csv"}},
		{"json-env", env, Options{Format: "json"}},
		{"markdown-env", env, Options{Format: "markdown"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			golden(t, tc.name+".golden", render(t, tc.runs, tc.opt))
		})
	}
}

func TestPlainOutputHasNoEscapes(t *testing.T) {
	runs := allRuns(t)
	for _, format := range Formats() {
		if format == "svg" {
			continue // one figure, chosen with Plot (svg_test.go)
		}
		out := render(t, runs, Options{Format: format, Details: true, Samples: true})
		if i := bytes.IndexByte(out, 0x1b); i >= 0 {
			t.Errorf("%s: ESC byte at offset %d without Color", format, i)
		}
	}
}

func TestNoTrailingSpaces(t *testing.T) {
	runs := allRuns(t)
	for _, opt := range []Options{{}, {Color: true}, {Color: true, Details: true}, {Format: "markdown"}} {
		out := string(render(t, runs, opt))
		for i, line := range strings.Split(out, "\n") {
			if strings.HasSuffix(line, " ") || strings.HasSuffix(line, "\t") {
				t.Errorf("%+v: line %d has trailing space: %q", opt, i+1, line)
			}
		}
	}
}

func TestIncompleteRunIsFlagged(t *testing.T) {
	runs := fixtureRuns(t)
	cut := *runs[0]
	cut.End = nil
	out := string(render(t, []*model.Run{&cut}, Options{}))
	if !strings.Contains(out, "⚠ incomplete run: stream cut short (no end record)") {
		t.Errorf("header does not flag the missing end record:\n%s", out)
	}
	out = string(render(t, runs[2:3], Options{Format: "markdown"}))
	if !strings.Contains(out, "incomplete run: interrupted (received SIGINT)") {
		t.Errorf("markdown does not flag the interrupted run:\n%s", out)
	}
}

func TestColorPaintsVerdicts(t *testing.T) {
	runs := fixtureRuns(t)
	out := string(render(t, runs[1:2], Options{Color: true}))
	for _, want := range []string{"\x1b[32mfaster", "\x1b[31mslower", "\x1b[33minconclusive", "\x1b[36mequivalent"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured table lacks %q", want)
		}
	}
}

func TestWriteRefusals(t *testing.T) {
	runs := fixtureRuns(t)
	raw := *runs[0]
	raw.Analysis = nil
	tests := []struct {
		name string
		runs []*model.Run
		opt  Options
		want string
	}{
		{"not analyzed", []*model.Run{runs[1], &raw}, Options{}, "run 1b9f3c2a was not analyzed: pipe the stream through fb-analyze first"},
		{"not analyzed csv", []*model.Run{&raw}, Options{Format: "csv"}, "fb-analyze"},
		{"not analyzed long-csv", []*model.Run{&raw}, Options{Format: "long-csv"}, "fb-analyze"},
		{"no runs", nil, Options{}, "no run records"},
		{"unknown format", runs, Options{Format: "yaml"}, `unknown report format "yaml" (want console, csv, json, markdown, long-csv, hyperfine-json, html, svg, gobench, bmf)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Write(&buf, tc.runs, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("a refused report wrote %d bytes", buf.Len())
			}
		})
	}
}

func TestSingleCaseCard(t *testing.T) {
	runs := fixtureRuns(t)
	out := string(render(t, runs[3:], Options{}))
	for _, want := range []string{
		"   latency    | median 1.498 ns/op  mean 1.633 ns",
		"   sampling   | 16777216 iter/sample x 55 samples  median batch 25.13 ms",
		"   quality    | CV 18.60%",
		"lag-1 correlation 0.47",
		"floor 0.003 ps/op",
		"   elapsed    | 00:00:01.5 timed samples (hh:mm:ss)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("single card lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "==") {
		t.Errorf("single case printed a comparison:\n%s", out)
	}
}
