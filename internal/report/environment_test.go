package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// TestEnvironmentFixtureMatchesAnalyze holds analyze.Environment, as the fixture calls it, to what
// fb-analyze writes for the same host records read from the stream.
func TestEnvironmentFixtureMatchesAnalyze(t *testing.T) {
	var out bytes.Buffer
	err := analyze.Stream(ndjson.NewReader(bytes.NewReader(envFixtureStream(t)), "fixture-env.ndjson"),
		ndjson.NewWriter(&out), flaggedOptions)
	if err != nil {
		t.Fatal(err)
	}
	r := ndjson.NewReader(&out, "analyzed")
	var got []ndjson.Environment
	for {
		l, err := r.Next()
		if err != nil {
			break
		}
		if l.Type == ndjson.TypeEnvironment {
			var e ndjson.Environment
			if err := r.Decode(l, &e); err != nil {
				t.Fatal(err)
			}
			got = append(got, e)
		}
	}
	runs := envFixtureRuns(t)
	if len(got) != len(runs) {
		t.Fatalf("fb-analyze wrote %d environment records, want %d", len(got), len(runs))
	}
	for i, r := range runs {
		if !reflect.DeepEqual(got[i], *r.Environment) {
			t.Errorf("run %s:\nfb-analyze %+v\nfixture    %+v", r.Run.RunID, got[i], *r.Environment)
		}
	}
}

func TestEnvironmentBlock(t *testing.T) {
	runs := envFixtureRuns(t)
	tests := []struct {
		run  *model.Run
		want []string
	}{
		{runs[0], []string{
			"-- environment ---",
			"   host       | claim held (machine), waited 300.0 ms    gate passed after 1.200 s (average 3.1%, busiest cpu 8.0%)",
			"   placement  | strict on cpu 1, watching cpus 1,3\n",
			"   watch      | retake, limit 10% foreign (core-scoped, then host-wide): 10 windows, 64 samples observed, foreign mean 10.0% peak 31.4%",
			"   repairs    | 2 windows retaken, 1 pause (812.0 ms): 30 samples discarded and collected again; 10 samples kept while contaminated",
			"   conditions | pause: profile performance (2 changes, ended performance), degradation unavailable, 3 throttle events (120.0 ms)",
			"              | 5 units under unacceptable conditions: 5 collected again after 1 pause (812.0 ms)",
			"   warning    | retake budget exhausted: contaminated windows were kept",
			"   warning    | core-scoped attribution gave way to host-wide at window 8: later foreign shares cover the whole host",
		}},
		{runs[1], []string{
			"   host       | claim busy (machine), waited 30.00 s    no quiescence gate",
			"   placement  | not requested",
			"   watch      | off\n",
			"   conditions | observe: profile unavailable, degradation unavailable, throttle counters unavailable",
			"   warning    | claim not obtained: another holder (pid 4242 fb-pair, machine scope, since 2026-03-14T09:20:11Z)",
		}},
	}
	for _, tc := range tests {
		out := string(render(t, []*model.Run{tc.run}, Options{}))
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: block lacks %q:\n%s", model.ShortID(tc.run.Run.RunID), want, out)
			}
		}
	}
	busy := string(render(t, runs[1:], Options{}))
	for _, never := range []string{"repairs", "foreign mean", "0.0%"} {
		if strings.Contains(busy, never) {
			t.Errorf("a run without a watch says %q:\n%s", never, busy)
		}
	}
	if out := string(render(t, fixtureRuns(t), Options{})); strings.Contains(out, "environment") {
		t.Errorf("runs without an environment record print the block")
	}
}

func TestEnvironmentRepairsAreYellow(t *testing.T) {
	out := string(render(t, envFixtureRuns(t)[:1], Options{Color: true}))
	if !strings.Contains(out, "   repairs    | \x1b[33m2 windows retaken") {
		t.Errorf("repairs line is not yellow:\n%s", out)
	}
}

// TestEnvironmentOutcomes varies one fact of the retake run at a time.
func TestEnvironmentOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *model.Run)
		want   string
	}{
		{"namespace", func(r *model.Run) {
			r.Environment.Lock, r.Lock.Outcome = ndjson.LockNamespaceScoped, ndjson.LockNamespaceScoped
		},
			"warning    | claim covers only this mount namespace (private /tmp)"},
		{"path unusable", func(r *model.Run) {
			r.Environment.Lock, r.Lock.Reason = ndjson.LockPathUnusable, `open "/tmp/host-cpu-claim/machine": permission denied`
		}, `warning    | claim not obtained: open "/tmp/host-cpu-claim/machine": permission denied`},
		{"busy, no holders", func(r *model.Run) { r.Environment.Lock = ndjson.LockBusy },
			"warning    | claim not obtained: another holder had it"},
		{"no lock", func(r *model.Run) { r.Environment.Lock, r.Lock = "not_requested", nil }, "host       | no claim    gate passed"},
		{"gate timeout", func(r *model.Run) { r.Environment.Gate = ndjson.GateTimeout },
			"warning    | quiescence gate timed out: the host did not stay under 5% average and 20% on any cpu"},
		{"no gate", func(r *model.Run) { r.Environment.Gate, r.Gate = "not_requested", nil }, "waited 300.0 ms    no quiescence gate\n"},
		{"placement rejected", func(r *model.Run) {
			r.Environment.Placement, r.Environment.WatchedCPUs = "rejected", nil
			r.Run.Config.Placement = &ndjson.Placement{CPU: 1, Outcome: "rejected", Reason: "sched_setaffinity: invalid argument"}
		}, "warning    | placement rejected (sched_setaffinity: invalid argument): the commands ran unplaced"},
		{"nothing judged", func(r *model.Run) { r.Environment.Watched = false },
			"64 samples observed, none judged: foreign share unknown"},
		{"clean watch", func(r *model.Run) {
			e := r.Environment
			e.ContaminatedSample, e.RetakenSamples, e.Pauses, e.PausedNS, r.End.Retakes = 0, 0, 0, 0, 0
		}, "repairs    | none\n"},
		{"no conditions", func(r *model.Run) { r.Environment.Conditions = nil }, "conditions | not checked\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := envFixtureRuns(t)[0]
			tc.change(r)
			out := string(render(t, []*model.Run{r}, Options{}))
			if !strings.Contains(out, tc.want) {
				t.Errorf("block lacks %q:\n%s", tc.want, out)
			}
		})
	}
}

func TestEnvironmentMarkdown(t *testing.T) {
	out := string(render(t, envFixtureRuns(t), Options{Format: "markdown"}))
	for _, want := range []string{
		"> ⚠ run repaired itself: 2 windows retaken, 1 pause (812.0 ms): 30 samples discarded and collected again\n",
		"> ⚠ retake budget exhausted: contaminated windows were kept\n",
		"\n_Host: claim held · gate passed · placement strict on cpu 1, watching cpus 1,3 · watch retake: " +
			"2 windows retaken, 1 pause, 10 samples kept while contaminated, peak foreign 31.4% · conditions pause: ",
		"> ⚠ claim not obtained: another holder (pid 4242 fb-pair, machine scope, since 2026-03-14T09:20:11Z)\n",
		"\n_Host: claim busy · no quiescence gate · placement not requested · watch off · conditions observe: " +
			"profile unavailable, degradation unavailable, throttle counters unavailable_\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONEnvironment(t *testing.T) {
	runs := append(fixtureRuns(t)[:1], envFixtureRuns(t)...)
	doc := decodeJSON(t, render(t, runs, Options{Format: "json"}))
	list := doc["runs"].([]any)
	for i, item := range list {
		run := item.(map[string]any)
		for _, key := range []string{"lock", "gate", "windows", "environment"} {
			if _, ok := run[key]; !ok {
				t.Errorf("run %d lacks %q", i, key)
			}
		}
		if w, ok := run["windows"].([]any); !ok || len(w) != len(runs[i].Windows) {
			t.Errorf("run %d windows = %v, want %d of them", i, run["windows"], len(runs[i].Windows))
		}
	}
	old, retake, busy := list[0].(map[string]any), list[1].(map[string]any), list[2].(map[string]any)
	if old["lock"] != nil || old["gate"] != nil || old["environment"] != nil {
		t.Errorf("a run without host records should carry nulls: %v %v %v", old["lock"], old["gate"], old["environment"])
	}
	env := retake["environment"].(map[string]any)
	if env["type"] != ndjson.TypeEnvironment || env["contaminated_samples"] != 10.0 || env["peak_foreign_pct"] != 31.4 {
		t.Errorf("retake environment = %v", env)
	}
	if retake["lock"].(map[string]any)["outcome"] != ndjson.LockHeld || retake["gate"].(map[string]any)["outcome"] != ndjson.GatePassed {
		t.Errorf("retake lock %v, gate %v", retake["lock"], retake["gate"])
	}
	if busy["gate"] != nil || busy["lock"].(map[string]any)["outcome"] != ndjson.LockBusy {
		t.Errorf("busy lock %v, gate %v", busy["lock"], busy["gate"])
	}
	var back struct {
		Runs []struct {
			Environment *ndjson.Environment `json:"environment"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(render(t, runs, Options{Format: "json"}), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Runs[1].Environment, runs[1].Environment) {
		t.Errorf("environment does not round-trip: %+v", back.Runs[1].Environment)
	}
}
