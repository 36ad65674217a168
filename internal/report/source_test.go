package report

import (
	"bytes"
	stdcsv "encoding/csv"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// importedRun is the fixture's single-case run as fb-import would
// describe it: a source tool, no host and no clock characterization.
func importedRun(t *testing.T) *model.Run {
	r := *fixtureRuns(t)[3]
	r.Run.Source = "hyperfine"
	r.Run.Host = ndjson.Host{OS: "unknown", Kernel: "unknown", Arch: "unknown", CPUModel: "unknown",
		Governor: "unknown", GoVersion: "unknown", Hostname: "unknown"}
	r.Run.Clock = ndjson.Clock{Backend: "hyperfine (unknown)"}
	return &r
}

// TestSourceIsShown: every format says where an imported run came from,
// and the console and Markdown say its host and clock are unknown rather
// than showing empty or zero facts.
func TestSourceIsShown(t *testing.T) {
	runs := []*model.Run{importedRun(t)}
	console := string(render(t, runs, Options{}))
	for _, want := range []string{" · source: hyperfine · ", " · host unknown", "resolution | not recorded"} {
		if !strings.Contains(console, want) {
			t.Errorf("console lacks %q:\n%s", want, console)
		}
	}
	md := string(render(t, runs, Options{Format: "markdown"}))
	if !strings.Contains(md, " · source: hyperfine · host unknown") {
		t.Errorf("markdown header lacks the source:\n%s", md)
	}
	if js := string(render(t, runs, Options{Format: "json"})); !strings.Contains(js, `"source": "hyperfine"`) {
		t.Errorf("json lacks the run's source:\n%s", js)
	}
	rows, err := stdcsv.NewReader(bytes.NewReader(render(t, runs, Options{Format: "csv"}))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows[1:] {
		if got := row[csvCol["source"]]; got != "hyperfine" {
			t.Errorf("csv source = %q, want hyperfine", got)
		}
	}
}

// TestCollectedRunHasNoSource: a run flybench collected shows no source.
func TestCollectedRunHasNoSource(t *testing.T) {
	runs := fixtureRuns(t)
	for _, f := range []string{"console", "markdown"} {
		if out := string(render(t, runs, Options{Format: f})); strings.Contains(out, "source:") {
			t.Errorf("%s shows a source for collected runs:\n%s", f, out)
		}
	}
}
