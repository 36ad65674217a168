package recorder

import (
	"bytes"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/cli"
	"github.com/flybench/flybench/pkg/ndjson"
)

// The package mirrors the stream's names instead of importing pkg/ndjson.
func TestNamesMirrorTheSchema(t *testing.T) {
	if schemaVersion != ndjson.Version {
		t.Errorf("schema %s, pkg/ndjson %s", schemaVersion, ndjson.Version)
	}
	want := [nOutcomes]string{ndjson.OutcomeSuccess, ndjson.OutcomeFailure, ndjson.OutcomeTimeout, ndjson.OutcomeCancelled}
	if outcomeNames != want {
		t.Errorf("outcomes %v, pkg/ndjson %v", outcomeNames, want)
	}
	for p, name := range map[Policy]string{Reservoir: ndjson.RetainReservoir, FirstN: ndjson.RetainFirst, LatestN: ndjson.RetainLatest} {
		if p.String() != name {
			t.Errorf("policy %d is %q, pkg/ndjson %q", p, p, name)
		}
	}
}

func TestRecordingRecord(t *testing.T) {
	r, bs, buf := started(t, Options{Axes: AllAxes | PerfAxes, Capacity: 7, Seed: 99, Tags: map[string]string{"k": "v"}}, "a", "b \"quoted\"")
	r.Begin(bs[1]).Finish(Failure)
	got := stop(t, r, buf)
	h := got.head
	if h.V != ndjson.Version || h.Tool != "recorder" || h.Source != "recorder" ||
		h.SampleSemantics != ndjson.SampleSemanticsIndividualSpan || h.Tags["k"] != "v" {
		t.Errorf("head %+v", h)
	}
	if len(h.RunID) != 36 || h.RunID[14] != '4' || !strings.Contains("89ab", h.RunID[19:20]) {
		t.Errorf("run id %q is not a version 4 UUID", h.RunID)
	}
	if h.Retention != (ndjson.Retention{Policy: "reservoir", Capacity: 7, Seed: 99}) {
		t.Errorf("retention %+v", h.Retention)
	}
	if len(h.Benchmarks) != 2 || h.Benchmarks[1] != (ndjson.RecordingBenchmark{Index: 1, Name: "b \"quoted\""}) {
		t.Errorf("benchmarks %+v", h.Benchmarks)
	}
	if h.Host.OS != runtime.GOOS || h.Host.CPUs != runtime.NumCPU() || h.Host.GoVersion != runtime.Version() || h.Host.Hostname == "" {
		t.Errorf("host %+v", h.Host)
	}
	if h.Clock.Backend != clockBackend || h.Clock.NominalNS <= 0 || h.Clock.ObservedStepNS <= 0 {
		t.Errorf("clock %+v", h.Clock)
	}
	var names []string
	for _, a := range h.Axes {
		names = append(names, a.Name)
		if a.Scope == "" || a.Attribution == "" || a.Direction == "" || a.Unit == "" || a.Status == "" {
			t.Errorf("axis %+v lacks a fact", a)
		}
		if (a.Status != statusCollected) != (a.Reason != "") {
			t.Errorf("axis %s: status %s with reason %q", a.Name, a.Status, a.Reason)
		}
	}
	if len(names) != 1+len(catalogue) || names[0] != "wall" {
		t.Errorf("axes %v", names)
	}
	if got.end.RunID != h.RunID || got.spans[0].RunID != h.RunID {
		t.Error("run ids differ between records")
	}
}

// Every requested axis is on every span, with a value exactly when its
// status is collected.
func TestSpanAxes(t *testing.T) {
	r, bs, buf := started(t, Options{Axes: AllAxes | PerfAxes}, "a")
	for range 20 {
		r.Begin(bs[0]).Finish(Success)
	}
	got := stop(t, r, buf)
	if len(got.spans) != 20 {
		t.Fatalf("%d spans", len(got.spans))
	}
	for _, s := range got.spans {
		if s.WallNS == nil || *s.WallNS < 0 || s.StartNS < 0 {
			t.Errorf("span %d: wall %v start %d", s.Obs, s.WallNS, s.StartNS)
		}
		if len(s.Axes) != len(catalogue) {
			t.Errorf("span %d: %d axes", s.Obs, len(s.Axes))
		}
		for name, v := range s.Axes {
			if (v.S == statusCollected) != (v.V != nil) {
				t.Errorf("span %d %s: status %s value %v", s.Obs, name, v.S, v.V)
			}
			if want := platformStatus(name); v.S != want && v.S != statusMigrated {
				t.Errorf("span %d %s: status %s, want %s", s.Obs, name, v.S, want)
			}
		}
	}
}

// platformStatus is the status an axis has on this platform when every
// read succeeds.
func platformStatus(name string) string {
	switch {
	case strings.HasPrefix(name, "perf_"):
		status, _ := perfProbe()
		return status
	case name == "thread_cpu" && runtime.GOOS != "linux":
		return statusUnsupported
	case !slices.Contains([]string{"linux", "darwin", "freebsd"}, runtime.GOOS):
		return statusUnsupported
	}
	return statusCollected
}

// fb-analyze reads a recording without an error.
func TestAnalyzeReadsTheRecording(t *testing.T) {
	r, bs, buf := started(t, Options{Axes: ThreadCPU | ProcessCPU}, "x", "y")
	for i := range 50 {
		r.Begin(bs[i%2]).Finish(Outcome(i % 4))
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	env := cli.Env{Stdin: bytes.NewReader(buf.Bytes()), Stdout: &out, Stderr: &errs, Getenv: func(string) string { return "" }}
	if code := cli.Run("fb-analyze", []string{"fb-analyze"}, env); code != 0 {
		t.Fatalf("fb-analyze exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), `"type":"recording_end"`) && !strings.Contains(out.String(), `"type":"span_summary"`) {
		t.Errorf("fb-analyze wrote neither the recording nor its summary:\n%s", out.String())
	}
}
