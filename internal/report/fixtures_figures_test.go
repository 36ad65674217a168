package report

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/recfixture"
	"github.com/flybench/flybench/internal/report/model"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Figure fixtures: runs made like fb-pair's, analysed by fb-analyze's
// own code (200 resamples), with telemetry on every batch.

// analyzed runs records through fb-analyze and loads the result.
func analyzed(t testing.TB, recs []ndjson.Record) *model.Stream {
	t.Helper()
	var in, out bytes.Buffer
	w := ndjson.NewWriter(&in)
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	opt := flaggedOptions
	opt.Resamples = 200
	if err := analyze.Stream(ndjson.NewReader(&in, "in"), ndjson.NewWriter(&out), opt); err != nil {
		t.Fatal(err)
	}
	s, err := LoadStream(ndjson.NewReader(&out, "analysed"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// teleRun is a run of cases collected in units (pairs for two cases,
// rounds for more), every sample with the run's telemetry: CPU near a
// core, memory growing slowly.
func teleRun(id string, units int, medians []float64, names ...string) []ndjson.Record {
	design := ndjson.DesignPaired
	if len(names) > 2 {
		design = ndjson.DesignRounds
	}
	run := testRun(id, "fb-pair", design, "equal-time", names...)
	iters := make([]int64, len(names))
	recs := []ndjson.Record{run}
	for i, m := range medians {
		iters[i] = max(1, int64(6_500_000/m))
		recs = append(recs, calibration(i, names[i], iters[i], m))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	samples := make([]int, len(names))
	for _, rec := range testSamples(uint64(units), units, iters, medians) {
		s := rec.(*ndjson.Sample)
		s.Tele = &ndjson.Telemetry{CPUPct: 96 + 3*rng.Float64() + float64(s.Case%3),
			RSSBytes: int64(20<<20 + s.Seq*512 + s.Case<<16 + rng.IntN(1<<14))}
		samples[s.Case]++
		recs = append(recs, s)
	}
	return append(recs, &ndjson.End{RunID: id, Reason: ndjson.EndCompleted, Units: units, Samples: samples,
		ElapsedNS: int64(units) * 13_000_000, SamplingNS: int64(units) * 13_000_000})
}

// sixteenCases are the case names and medians of a 16-case run.
func sixteenCases() ([]string, []float64) {
	var names []string
	var medians []float64
	for i := range 16 {
		names = append(names, fmt.Sprintf("variant-%02d", i))
		medians = append(medians, 1_000_000*(1+0.04*float64(i%7)-0.03*float64(i%3)))
	}
	return names, medians
}

// sixteenRun is a 16-case rounds run of the given rounds.
func sixteenRun(t testing.TB, rounds int) *model.Run {
	names, medians := sixteenCases()
	return analyzed(t, teleRun("f16c0a5e-0000-4000-8000-000000000016", rounds, medians, names...)).Runs[0]
}

// scanRun is a parameter scan of threads=1,2,4 by compiler=gcc,clang
// (fb-pair -L compiler=gcc,clang -L threads=1,2,4): six cases, each
// carrying its params, the time falling with threads and clang faster.
func scanRun(t testing.TB) *model.Run {
	var names []string
	var medians []float64
	var params []map[string]string
	for _, c := range []string{"gcc", "clang"} {
		for _, th := range []int{1, 2, 4} {
			names = append(names, fmt.Sprintf("compiler=%s, threads=%d", c, th))
			m := 4_000_000 / (0.6 + 0.4*float64(th))
			if c == "clang" {
				m *= 0.93
			}
			medians = append(medians, m)
			params = append(params, map[string]string{"compiler": c, "threads": fmt.Sprint(th)})
		}
	}
	recs := teleRun("5ca40000-0000-4000-8000-00000000005c", 20, medians, names...)
	run := recs[0].(*ndjson.Run)
	for i := range run.Cases {
		run.Cases[i].Params = params[i]
	}
	return analyzed(t, recs).Runs[0]
}

// bigPairRun is a two-case paired run of the given pairs.
func bigPairRun(t testing.TB, pairs int) *model.Run {
	return analyzed(t, teleRun("b1900a1e-0000-4000-8000-000000001000", pairs,
		[]float64{2_153_000, 1_990_000}, "old", "new")).Runs[0]
}

// processRecording is a recording with the observed program's and the
// recorder's usage every half second.
func processRecording(t testing.TB) *model.Recording {
	recs := recfixture.Recording("rec-proc", recfixture.Small, 1, 3)
	end := recs[len(recs)-1]
	var body []ndjson.Record
	for _, r := range recs[:len(recs)-1] {
		if _, ok := r.(*ndjson.ProcessUsage); !ok {
			body = append(body, r)
		}
	}
	for i := range 10 {
		body = append(body, &ndjson.ProcessUsage{RunID: "rec-proc", AtNS: int64(i) * 500_000_000,
			ProgramCPU: 30 + float64(i%4)*5, ProgramRSS: int64(30+i) << 20,
			RecorderCPU: 1 + float64(i%3)*0.5, RecorderRSS: 9 << 20})
	}
	return analyzed(t, append(body, end)).Recordings[0]
}
