package report

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TestUnavailableAxesPrintTheirStatus checks every format a person reads:
// each line that names an unavailable axis says why, and no number comes
// before the reason.
func TestUnavailableAxesPrintTheirStatus(t *testing.T) {
	runs := axesFixtureRuns(t)
	tests := []struct {
		run      *model.Run
		names    *regexp.Regexp
		statuses []string
	}{
		{runs[0], regexp.MustCompile(`(^|[ |])(cycles|ipc)( |$)`), []string{
			"unavailable: unsupported event (no hardware PMU",
			"unavailable: unsupported event (baseline: no hardware PMU"}},
		{runs[1], regexp.MustCompile(`(^|[ |])branch(\\)?_misses( |$)`), []string{
			"unavailable: counter resources unavailable (the PMU",
			"unavailable: counter resources unavailable (base: the PMU"}},
	}
	for _, tc := range tests {
		for _, opt := range []Options{{}, {Details: true}, {Format: "markdown"}} {
			out := string(render(t, []*model.Run{tc.run}, opt))
			found := 0
			for _, line := range strings.Split(out, "\n") {
				if !tc.names.MatchString(line) {
					continue
				}
				found++
				checkUnavailableLine(t, line, tc.statuses)
			}
			if found == 0 {
				t.Errorf("%s %+v: no line names an unavailable axis", tc.run.Run.RunID, opt)
			}
		}
	}
}

// checkUnavailableLine accepts a line that gives one of the statuses, or
// a matrix row of "n/a" cells, with no digit before the reason.
func checkUnavailableLine(t *testing.T, line string, statuses []string) {
	t.Helper()
	matrixRow := regexp.MustCompile(`^   branch_misses( +n/a)+$`).MatchString(line)
	ok := matrixRow
	for _, st := range statuses {
		ok = ok || strings.Contains(line, st)
	}
	if !ok {
		t.Errorf("a line names an unavailable axis without its status:\n%s", line)
	}
	before, _, _ := strings.Cut(line, "(")
	if regexp.MustCompile(`\d`).MatchString(before) {
		t.Errorf("a number comes before the reason:\n%s", line)
	}
}

func TestAxisCard(t *testing.T) {
	out := string(render(t, axesFixtureRuns(t)[:1], Options{}))
	for _, want := range []string{
		"   cpu        | ▇▇▇▇▇▇▇▇▇▁▇",
		"              | average 90.8%  (0.91 cores)    peak 100.0%  (1.00 cores)",
		"   memory     | ▁▁▁▁▁▁▂▂▂",
		"              | peak 20.6 MiB  first 20.4 MiB  last 20.6 MiB  (this tool plus the batch's processes)",
		"   axes       | axis          median  unit       95% CI of mean",
		"              | minor_faults    1212  faults/op  1211 .. 1218",
		"              | cycles        unavailable: unsupported event (no hardware PMU: ",
		"partially collected: n 37, missing 3 (3 of 40 samples have no value: probe failed: /proc/PID/io",
		"   axis          baseline  arena  unit       change            95% CI  verdict",
		"   minor_faults      1212  740.0  faults/op  -39.0%  -39.6% .. -38.4%  arena better",
		"   cycles        unavailable: unsupported event (baseline: no hardware PMU: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("card lacks %q:\n%s", want, out)
		}
	}
}

// TestSameWallTimeIsADiagnosis is the reason axes exist: prefetch has the
// same wall time as base, and the matrix says what changed instead.
func TestSameWallTimeIsADiagnosis(t *testing.T) {
	out := string(render(t, axesFixtureRuns(t)[1:], Options{}))
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`== axes against base =+\n   axis +prefetch +packed\n`),
		regexp.MustCompile(`\n   wall +-0\.3%  ~ +-12\.3%  ✓\n`),
		regexp.MustCompile(`\n   ipc +\+11\.2%  ✓ +\+14\.0%  ✓\n`),
		regexp.MustCompile(`\n   cache_misses +-33\.4%  ✓ +\+4\.1%  ✗\n`),
		regexp.MustCompile(`\n   involuntary_switches +\+0\.3%  ~ +-2\.2%  \?\n`),
		regexp.MustCompile(`\n   major_faults +Δ\+0\.01040 faults/op  \? +Δ-0\.01390 faults/op  \?\n`),
		regexp.MustCompile(`\n   rss_peak +\+0\.8%  diag +-20\.3%  diag\n`),
		regexp.MustCompile(`\n   branch_misses +n/a +n/a\n   legend     \| `),
		regexp.MustCompile(`\n   n/a        \| branch_misses unavailable: counter resources unavailable \(base: the PMU`),
	} {
		if !want.MatchString(out) {
			t.Errorf("matrix lacks %s:\n%s", want, out)
		}
	}
	details := string(render(t, axesFixtureRuns(t)[1:], Options{Details: true}))
	if strings.Contains(details, "axes against base") {
		t.Errorf("--details prints the comparison cards' tables, not the matrix")
	}
	if !regexp.MustCompile(`\n   major_faults +0\.000 +0\.000 +faults/op +\+0\.01040 \(absolute\) +-0\.02080 \.\. \+0\.04170 +inconclusive\n`).MatchString(details) {
		t.Errorf("an absolute comparison is not marked:\n%s", details)
	}
}

func TestColorPaintsAxisVerdicts(t *testing.T) {
	out := string(render(t, axesFixtureRuns(t), Options{Color: true, Details: true}))
	for _, want := range []string{"\x1b[32marena better", "\x1b[31mbase better", "\x1b[36mpractically equivalent",
		"\x1b[33minconclusive", "\x1b[33munavailable: unsupported event"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured comparison cards lack %q", want)
		}
	}
	if strings.Contains(out, "m"+"diagnostic") {
		t.Errorf("a diagnostic axis is painted as if judged")
	}
}

func TestMarkdownAxes(t *testing.T) {
	out := string(render(t, axesFixtureRuns(t), Options{Format: "markdown"}))
	for _, want := range []string{
		"Axes of arena against baseline, on the same pairs (95% CI):\n\n| axis | baseline | arena | change | verdict |\n",
		"| minor\\_faults | 1212 faults/op | 740.0 faults/op | -39.0% (-39.6% .. -38.4%) | **arena better** |\n",
		"| cycles | n/a | n/a | unavailable: unsupported event (baseline: no hardware PMU: perf\\_event\\_open",
		"| major\\_faults | 0.000 faults/op | 0.000 faults/op | +0.01040 faults/op (-0.02080 .. +0.04170 faults/op) absolute | **inconclusive** |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

// TestWallOnlyAxesRenderAsBefore: a run that requested no axis besides
// wall time prints no axis block, table or matrix; its console and
// Markdown reports are those of a stream without axes.
func TestWallOnlyAxesRenderAsBefore(t *testing.T) {
	for _, i := range []int{0, 1} {
		plain := fixtureRuns(t)[i]
		wallOnly := *fixtureRuns(t)[i]
		wallOnly.Run.Axes = []ndjson.AxisInfo{axisInfo(axes.Wall, axes.Collected, "")}
		wallOnly.Summaries = slices.Clone(wallOnly.Summaries)
		for k := range wallOnly.Summaries {
			wallOnly.Summaries[k].Axes = model.SummaryAxes(&wallOnly.Summaries[k])
		}
		wallOnly.Comparisons = slices.Clone(wallOnly.Comparisons)
		for k := range wallOnly.Comparisons {
			wallOnly.Comparisons[k].Axes = model.ComparisonAxes(&wallOnly, &wallOnly.Comparisons[k])
		}
		for _, opt := range []Options{{}, {Details: true}, {Format: "markdown"}} {
			want, got := render(t, []*model.Run{plain}, opt), render(t, []*model.Run{&wallOnly}, opt)
			if !bytes.Equal(got, want) {
				t.Errorf("run %d %+v: wall-only axes change the report:\n%s", i, opt, firstDiff(string(want), string(got)))
			}
		}
	}
}
