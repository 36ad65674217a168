package tests

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/flybench/flybench/pkg/ndjson"
)

// layoutCheck is `layoutcheck STREAM PADS`: PADS holds one line "CASE
// LENGTH" per process the commands started, as each saw the layout
// variable; its last lines are the timed batches, in the stream's sample
// order (iter processes per sample in exec mode, one in batch mode), and
// their lengths must be the samples' layout_pad. The pads must differ
// across units and agree within one.
// With ! the processes' paddings must not be the stream's.
func layoutCheck(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: layoutcheck STREAM PADS")
	}
	mode, samples := readLayoutStream(ts, args[0])
	want := expectedPads(ts, mode, samples)
	got := strings.Split(strings.TrimSpace(ts.ReadFile(args[1])), "\n")
	if len(got) > len(want) {
		got = got[len(got)-len(want):]
	}
	switch same := slices.Equal(got, want); {
	case neg && same:
		ts.Fatalf("the timed processes saw the stream's paddings")
	case !neg && !same:
		ts.Fatalf("the timed processes saw\n%s\nthe stream records\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// expectedPads are the lines the timed processes of the samples write.
func expectedPads(ts *testscript.TestScript, mode string, samples []ndjson.Sample) []string {
	var want []string
	units := map[int]int{}
	for _, s := range samples {
		if s.LayoutPad == nil {
			ts.Fatalf("sample %d has no layout_pad", s.Seq)
		}
		if p, ok := units[s.Unit]; ok && p != *s.LayoutPad {
			ts.Fatalf("unit %d: cases padded %d and %d", s.Unit, p, *s.LayoutPad)
		}
		units[s.Unit] = *s.LayoutPad
		procs := s.Iter
		if mode == "batch" {
			procs = 1
		}
		for range procs {
			want = append(want, fmt.Sprintf("%d %d", s.Case, *s.LayoutPad))
		}
	}
	distinct := map[int]bool{}
	for _, p := range units {
		distinct[p] = true
	}
	if len(distinct) < len(units)/2 {
		ts.Fatalf("%d distinct paddings over %d units", len(distinct), len(units))
	}
	return want
}

func readLayoutStream(ts *testscript.TestScript, file string) (string, []ndjson.Sample) {
	r := ndjson.NewReader(strings.NewReader(ts.ReadFile(file)), file)
	var mode string
	var samples []ndjson.Sample
	for {
		l, err := r.Next()
		if err == io.EOF {
			break
		}
		ts.Check(err)
		switch l.Type {
		case ndjson.TypeRun:
			var run ndjson.Run
			ts.Check(r.Decode(l, &run))
			mode = string(run.Mode)
		case ndjson.TypeSample:
			var s ndjson.Sample
			ts.Check(r.Decode(l, &s))
			samples = append(samples, s)
		}
	}
	slices.SortFunc(samples, func(a, b ndjson.Sample) int { return a.Seq - b.Seq })
	return mode, samples
}
