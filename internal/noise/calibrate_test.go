package noise

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestEstimateExact(t *testing.T) {
	// Deltas 10 and -5 percent: median 2.5, deviations 7.5 and 7.5.
	if got := Estimate(ndjson.NoiseLevel, []float64{100, 110, 95}); !near(got, 1.96*1.4826*7.5) || !near(got, 21.79422) {
		t.Errorf("level noise %v, want 21.79422", got)
	}
	// A change from 1% to 3% and -1% is a delta of 2 and -2 points, not
	// of 200% and -200%.
	if got := Estimate(ndjson.NoiseChange, []float64{1, 3, -1}); !near(got, 5.811792) {
		t.Errorf("change noise %v, want 5.811792", got)
	}
	if got := Deltas(ndjson.NoiseLevel, []float64{200, 210, 190}); len(got) != 2 || got[0] != 5 || got[1] != -5 {
		t.Errorf("deltas %v, want [5 -5] (the first invocation's own 0 left out)", got)
	}
	if got := Estimate(ndjson.NoiseLevel, []float64{100, 120}); got != 0 {
		t.Errorf("one delta: %v, want 0", got)
	}
}

// driftScenario: new's time drifts by deltas 1,2,3,4,3,5 percent (MAD of
// the deltas so far: 0, .5, 1, 1, 1, 1), the change of new against old by
// 0,8,2,6,4,4 points (MAD 0, 4, 2, 3, 2, 2), old's time not at all. Every
// estimate has settled within 10% first at invocation 7.
func driftScenario() []inv {
	newMean := []float64{100, 101, 102, 103, 104, 103, 105}
	change := []float64{1, 1, 9, 3, 7, 5, 5}
	out := make([]inv, len(newMean))
	for i := range out {
		out[i] = inv{oldMean: 200, newMean: newMean[i], change: change[i]}
	}
	return out
}

func TestCalibrateStopsWhenEveryEstimateSettled(t *testing.T) {
	var ps []Progress
	res, err := Calibrate(context.Background(), config(3, 50, 10), invs(t, driftScenario()...), collect(&ps))
	if err != nil {
		t.Fatal(err)
	}
	if res.Invocations != 7 || !res.Converged {
		t.Fatalf("stopped after %d, converged %v; want 7, true", res.Invocations, res.Converged)
	}
	want := []struct {
		k     Key
		noise float64
	}{{levelTime, 2.905896}, {levelOld, 0}, {changeTime, 5.811792}}
	if len(res.Metrics) != len(want) {
		t.Fatalf("metrics %+v, want %d", res.Metrics, len(want))
	}
	for i, w := range want {
		m := res.Metrics[i]
		if m.Kind != w.k.Kind || m.Metric != w.k.Metric || m.Case != w.k.Case || m.Reference != w.k.Reference {
			t.Errorf("metric %d is %+v, want %v (levels first, then by case)", i, m, w.k)
		}
		if !near(m.NoisePct, w.noise) || m.N != 6 {
			t.Errorf("%v: noise %v over %d deltas, want %v over 6", w.k, m.NoisePct, m.N, w.noise)
		}
	}
	largest := []float64{0, 0, math.Inf(1), 1, 0.5, 1.0 / 3, 0}
	of := []Key{{}, {}, levelTime, levelTime, changeTime, changeTime, levelTime}
	for i, p := range ps {
		if p.Invocation != i+1 || p.MaxRuns != 50 || p.Metrics != 3 || p.Estimates != (i > 0) {
			t.Errorf("progress %d: %+v", i+1, p)
		}
		if !near(p.Largest, largest[i]) && p.Largest != largest[i] || p.Of != of[i] {
			t.Errorf("progress %d: largest change %v of %v, want %v of %v", i+1, p.Largest, p.Of, largest[i], of[i])
		}
	}
}

func TestCalibrateStopsAtMaxRunsUnconverged(t *testing.T) {
	res, err := Calibrate(context.Background(), config(3, 6, 10), invs(t, driftScenario()[:6]...), func(Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	if res.Invocations != 6 || res.Converged {
		t.Fatalf("stopped after %d, converged %v; want 6, false", res.Invocations, res.Converged)
	}
	if m := metric(t, res, changeTime); !near(m.NoisePct, 5.811792) || m.N != 5 {
		t.Errorf("change noise %+v, want 5.811792 over 5 deltas", m)
	}
	if !near(res.Largest, 1.0/3) || res.Of != changeTime {
		t.Errorf("last change of estimate %v of %v, want 1/3 of the change", res.Largest, res.Of)
	}
}

func TestCalibrateRunsAtLeastMinRuns(t *testing.T) {
	// A constant offset: every estimate is 0 from the start, and two zeros
	// are settled, but not before --min-runs.
	v := inv{oldMean: 200, newMean: 105, change: 2}
	first := inv{oldMean: 200, newMean: 100, change: 1}
	res, err := Calibrate(context.Background(), config(5, 50, 10), invs(t, first, v, v, v, v), func(Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	if res.Invocations != 5 || !res.Converged {
		t.Fatalf("stopped after %d, converged %v; want 5, true", res.Invocations, res.Converged)
	}
	for _, m := range res.Metrics {
		if m.NoisePct != 0 {
			t.Errorf("%+v: constant deltas have no spread", m)
		}
	}
}

func TestCalibrateZeroThenNonzeroIsNotSettled(t *testing.T) {
	// Deltas 0, 4, 0, 0: MAD 0, then 2 (an infinite change from 0), then
	// 0 (a change of 100%), then 0 again: settled at invocation 5.
	var v []inv
	for _, m := range []float64{100, 100, 104, 100, 100, 100} {
		v = append(v, inv{oldMean: 200, newMean: m, change: 1})
	}
	var ps []Progress
	res, err := Calibrate(context.Background(), config(3, 6, 10), invs(t, v...), collect(&ps))
	if err != nil {
		t.Fatal(err)
	}
	if res.Invocations != 5 || !res.Converged || metric(t, res, levelTime).NoisePct != 0 {
		t.Fatalf("stopped after %d, converged %v, metrics %+v; want 5, true, 0", res.Invocations, res.Converged, res.Metrics)
	}
	if !math.IsInf(ps[2].Largest, 1) || ps[3].Largest != 1 {
		t.Errorf("changes of estimate %v and %v, want +Inf and 1", ps[2].Largest, ps[3].Largest)
	}
	if !settled(0, 0, 0.1) || settled(0, 1, 0.1) || !settled(10, 11, 0.1) || settled(10, 11.01, 0.1) {
		t.Error("settled: 0→0 and a 10% move settle at 10%; 0→1 and 10.1% do not")
	}
}

func TestCalibrateAxes(t *testing.T) {
	rss := []float64{1000, 1010, 990, 1000}
	var v []inv
	for _, r := range rss {
		v = append(v, inv{oldMean: 200, newMean: 100, change: 0, rss: ptr(r)})
	}
	res, err := Calibrate(context.Background(), config(3, 4, 10), invs(t, v...), func(Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	// rss deltas 1, -1, 0 percent: median 0, MAD 1. Its change (rss/10 in
	// points): 100, 101, 99, 100: deltas 1, -1, 0: MAD 1.
	if m := metric(t, res, levelRSS); !near(m.NoisePct, 2.905896) {
		t.Errorf("max_rss level noise %v, want 2.905896", m.NoisePct)
	}
	if m := metric(t, res, changeRSS); !near(m.NoisePct, 2.905896) {
		t.Errorf("max_rss change noise %v, want 2.905896", m.NoisePct)
	}
	for _, m := range res.Metrics {
		if m.Metric == "wall" {
			t.Errorf("the timing axis is metric time, not its own: %+v", m)
		}
	}
	if len(res.Metrics) != 5 {
		t.Errorf("%d metrics, want 5: time and max_rss levels of new, time of old, two changes", len(res.Metrics))
	}
}

func TestCalibrateDropsMetricsALaterInvocationLacks(t *testing.T) {
	a := inv{oldMean: 200, newMean: 100, change: 1, rss: ptr(1000)}
	b := inv{oldMean: 200, newMean: 100, change: 1}
	var ps []Progress
	res, err := Calibrate(context.Background(), config(3, 3, 10), invs(t, a, a, b), collect(&ps))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps[2].Dropped) != 2 || ps[2].Dropped[0] != levelRSS || ps[2].Dropped[1] != changeRSS || ps[2].Metrics != 3 {
		t.Errorf("invocation 3 progress %+v, want max_rss level and change dropped, 3 metrics left", ps[2])
	}
	if len(res.Metrics) != 3 {
		t.Errorf("metrics %+v, want the three in every invocation", res.Metrics)
	}
}

func TestCalibrateSkipsZeroLevels(t *testing.T) {
	v := inv{oldMean: 200, newMean: 100, change: 1, rss: ptr(0)}
	res, err := Calibrate(context.Background(), config(3, 3, 10), invs(t, v, v, v), func(Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range res.Metrics {
		if m.Kind == ndjson.NoiseLevel && m.Metric == "max_rss" {
			t.Errorf("a level of 0 has no relative delta, but the profile has %+v", m)
		}
	}
	metric(t, res, changeRSS)
}

func TestCalibrateRefusesAnotherMachineClass(t *testing.T) {
	other := host
	other.CPUModel = "Other CPU"
	a, b := inv{oldMean: 1, newMean: 1}, inv{oldMean: 1, newMean: 1, host: other}
	_, err := Calibrate(context.Background(), config(3, 3, 10), invs(t, a, b), func(Progress) {})
	var ie *InvocationError
	var ce *ClassError
	if !errors.As(err, &ie) || ie.I != 2 || !errors.As(err, &ce) || ce.Field != "cpu_model" {
		t.Fatalf("err %v, want invocation 2's cpu_model", err)
	}
	if want := `invocation 2: host cpu_model is "Other CPU", not "Test CPU" as before`; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want it to start %q", err, want)
	}
}

func TestCalibrateTags(t *testing.T) {
	rev := func(r string) inv { return inv{oldMean: 1, newMean: 1, tags: map[string]string{"rev": r}} }
	res, err := Calibrate(context.Background(), config(3, 3, 10), invs(t, rev("a"), rev("a"), rev("a")), func(Progress) {})
	if err != nil || res.Tags["rev"] != "a" || res.Class != ClassOf(host) {
		t.Fatalf("res %+v, err %v: want the tags and class all agree on", res, err)
	}
	var ps []Progress
	res, err = Calibrate(context.Background(), config(3, 3, 10), invs(t, rev("a"), rev("b"), rev("a")), collect(&ps))
	if err != nil || res.Tags != nil || !ps[1].TagsDiffer || ps[2].TagsDiffer {
		t.Fatalf("res %+v, err %v, progress %+v: differing tags are left out, said once", res, err, ps)
	}
}

func TestCalibrateBadStream(t *testing.T) {
	good := inv{oldMean: 1, newMean: 1}.stream(t)
	bad := append(append([]byte{}, good...), "{\"type\":\"sample\",\n"...)
	_, err := Calibrate(context.Background(), config(3, 3, 10), streams(t, good, bad), func(Progress) {})
	var se *ndjson.SyntaxError
	if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), "invocation 2: line 7: invalid JSON") {
		t.Fatalf("err %v, want a syntax error at invocation 2, line 7", err)
	}
}

func TestCalibrateNoMetrics(t *testing.T) {
	var buf strings.Builder
	w := ndjson.NewWriter(&buf)
	write(t, w, &ndjson.Lock{Tool: "fb-lock", Outcome: "held"})
	_, err := Calibrate(context.Background(), config(3, 3, 10), streams(t, []byte(buf.String())), func(Progress) {})
	if !errors.Is(err, ErrNoMetrics) || !strings.HasPrefix(err.Error(), "invocation 1: the stream has no summary or comparison") {
		t.Fatalf("err %v, want ErrNoMetrics at invocation 1", err)
	}
}

func TestCalibrateRunnerErrorAndCancel(t *testing.T) {
	boom := errors.New("boom")
	_, err := Calibrate(context.Background(), config(3, 3, 10), func(context.Context, int) (io.Reader, error) { return nil, boom }, func(Progress) {})
	if err != boom {
		t.Errorf("err %v, want the runner's", err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("interrupted")
	v := inv{oldMean: 1, newMean: 1}
	runs := 0
	run := func(c context.Context, i int) (io.Reader, error) {
		runs++
		if i == 2 {
			cancel(stop)
		}
		return invs(t, v, v)(c, i)
	}
	if _, err := Calibrate(ctx, config(3, 3, 10), run, func(Progress) {}); err != stop || runs != 2 {
		t.Errorf("err %v after %d invocations, want the cancel cause after 2", err, runs)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{config(2, 50, 10), "noise.MinRuns 2"},
		{config(10, 9, 10), "noise.MaxRuns 9 is below noise.MinRuns 10"},
		{config(10, 50, 0), "noise.TolerancePct 0"},
		{config(10, 50, math.NaN()), "noise.TolerancePct NaN"},
	} {
		if err := c.cfg.Validate(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.cfg, err, c.want)
		}
	}
	if err := DefaultConfig.Validate(); err != nil {
		t.Error(err)
	}
}

func TestRecord(t *testing.T) {
	cfg := config(3, 50, 10)
	res, err := Calibrate(context.Background(), cfg, invs(t, driftScenario()...), func(Progress) {})
	if err != nil {
		t.Fatal(err)
	}
	created := time.Date(2025, 3, 1, 14, 30, 5, 999, time.FixedZone("CET", 3600))
	rec := Record([]string{"fb-pair", "--", "a", "b"}, cfg, res, created, "v1.2.3")
	var buf strings.Builder
	if err := ndjson.NewWriter(&buf).Write(rec); err != nil {
		t.Fatal(err)
	}
	want := `{"type":"noise","v":"1.7","command":["fb-pair","--","a","b"],"invocations":7,"min_runs":3,"max_runs":50,` +
		`"tolerance_pct":10,"converged":true,"class":{"os":"linux","arch":"amd64","cpu_model":"Test CPU","cpus":2},` +
		`"created":"2025-03-01T13:30:05Z","tool_version":"v1.2.3","metrics":[` +
		`{"metric":"time","kind":"level","case":"new","noise_pct":2.905896,"n":6},` +
		`{"metric":"time","kind":"level","case":"old","noise_pct":0,"n":6},` +
		`{"metric":"time","kind":"change","case":"new","reference":"old","noise_pct":5.811792,"n":6}]}` + "\n"
	if buf.String() != want {
		t.Errorf("record\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestKeyString(t *testing.T) {
	for k, want := range map[Key]string{
		levelTime:  "time/new",
		changeTime: "time/new vs old",
		{Kind: ndjson.NoiseChange, Metric: "max_rss", Case: "spin -n 5 (2)", Reference: "spin -n 5"}: `max_rss/"spin -n 5 (2)" vs "spin -n 5"`,
		{Kind: ndjson.NoiseLevel, Metric: "time", Case: "bin/spin"}:                                  `time/"bin/spin"`,
	} {
		if got := k.String(); got != want {
			t.Errorf("%#v: %s, want %s", k, got, want)
		}
	}
}
