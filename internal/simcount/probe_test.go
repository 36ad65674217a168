package simcount

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/flybench/flybench/internal/axes"
)

// fake counts a command as its FLYBENCH_N-free argv says: 1000 start-up
// instructions plus 7 per operation, the operations being the argument
// after -n; it records every run.
type fake struct {
	runs    []Run
	vary    bool
	failing string
}

func (f *fake) count(_ context.Context, r Run) (int64, error) {
	f.runs = append(f.runs, r)
	if f.failing != "" && slices.Contains(r.Argv, f.failing) {
		return 0, errors.New("under valgrind the command failed: exit status 1")
	}
	var n int64 = 1
	if i := slices.Index(r.Argv, "-n"); i >= 0 {
		fmt.Sscan(r.Argv[i+1], &n)
	}
	extra := int64(0)
	if f.vary {
		extra = int64(len(f.runs))
	}
	return 1000 + 7*n + extra, nil
}

func counter(f *fake, targets ...Target) *Counter {
	return &Counter{Tool: Tool{Path: "valgrind", Version: "valgrind-3.19.0"}, Targets: targets, count: f.count}
}

func TestCountExec(t *testing.T) {
	f := &fake{}
	prepared := 0
	rec := counter(f, Target{Argv: []string{"prog", "-n", "10"}}).Count(context.Background(), 0, 50, func() error { prepared++; return nil })
	if rec.Status != string(axes.Collected) || rec.Value == nil || *rec.Value != 1070 || rec.Runs != Repeats || len(rec.Values) != Repeats {
		t.Fatalf("got %+v, want %d counts of 1070", rec, Repeats)
	}
	if prepared != Repeats || rec.Axis != axes.InstructionsSim || rec.Unit != "instructions/op" ||
		rec.Source != "valgrind --tool=cachegrind --cache-sim=no (valgrind-3.19.0)" {
		t.Fatalf("got %+v after %d prepares", rec, prepared)
	}
}

// TestCountBatch: the difference of 2n and n removes start-up, whatever n.
func TestCountBatch(t *testing.T) {
	f := &fake{}
	rec := counter(f, Target{Argv: []string{"prog", "-n", "{n}"}, Batch: true}).Count(context.Background(), 0, 40, nil)
	if rec.Status != string(axes.Collected) || *rec.Value != 7 || rec.Runs != 2*Repeats {
		t.Fatalf("got %+v, want 7 per operation from %d runs", rec, 2*Repeats)
	}
	if got := f.runs[1]; got.Argv[2] != "80" || !slices.Contains(got.Env, "FLYBENCH_N=80") || !got.ReportFD {
		t.Fatalf("second run %+v: want n=80 in argv and environment, and a report channel", got)
	}
}

func TestCountVaries(t *testing.T) {
	rec := counter(&fake{vary: true}, Target{Argv: []string{"prog"}}).Count(context.Background(), 0, 1, nil)
	if !slices.Equal(rec.Values, []float64{1008, 1009, 1010}) || *rec.Value != 1009 {
		t.Fatalf("got %+v, want every count and their median", rec)
	}
}

func TestCountFailures(t *testing.T) {
	rec := counter(&fake{failing: "prog"}, Target{Argv: []string{"prog"}}).Count(context.Background(), 0, 1, nil)
	if rec.Status != string(axes.ProbeFailed) || rec.Value != nil || rec.Values != nil || !strings.Contains(rec.Reason, "exit status 1") {
		t.Fatalf("got %+v, want probe_failed with the reason and no value", rec)
	}
	rec = counter(&fake{}, Target{Argv: []string{"prog"}}).Count(context.Background(), 0, 1, func() error { return errors.New("no disk") })
	if rec.Status != string(axes.ProbeFailed) || rec.Reason != "Hooks.Prepare: no disk" {
		t.Fatalf("got %+v, want the prepare hook's failure", rec)
	}
	rec = counter(&fake{}, Target{Refusal: "not in worker mode"}).Count(context.Background(), 0, 1, nil)
	if rec.Status != string(axes.UnsupportedMode) || rec.Reason != "not in worker mode" || rec.Value != nil {
		t.Fatalf("got %+v, want unsupported_mode", rec)
	}
}

// TestCountShrinkingBatch refuses a batch whose larger size counts less.
func TestCountShrinkingBatch(t *testing.T) {
	k := &Counter{Targets: []Target{{Argv: []string{"{n}"}, Batch: true}}, count: func(_ context.Context, r Run) (int64, error) {
		if r.Argv[0] == "10" {
			return 500, nil
		}
		return 900, nil
	}}
	rec := k.Count(context.Background(), 0, 5, nil)
	if rec.Status != string(axes.ProbeFailed) || !strings.Contains(rec.Reason, "fewer instructions") {
		t.Fatalf("got %+v", rec)
	}
}

func TestFind(t *testing.T) {
	_, st, err := Find(context.Background(), "darwin", nil)
	if st != axes.UnsupportedPlatform || err == nil || !strings.Contains(err.Error(), "only on Linux (GOOS=darwin)") {
		t.Fatalf("darwin: %s, %v", st, err)
	}
	missing := func(string) (string, error) { return "", errors.New("not found") }
	_, st, err = Find(context.Background(), "linux", missing)
	if st != axes.UnsupportedPlatform || err == nil || err.Error() != Missing {
		t.Fatalf("missing: %s, %v", st, err)
	}
	_, st, err = Find(context.Background(), "linux", func(string) (string, error) { return "/bin/false", nil })
	if st != axes.ProbeFailed || err == nil {
		t.Fatalf("a valgrind that fails: %s, %v", st, err)
	}
}

// TestCountPassesInput: every counted run of a target, batch or not, gets
// its stdin.
func TestCountPassesInput(t *testing.T) {
	for _, batch := range []bool{false, true} {
		f := &fake{}
		counter(f, Target{Argv: []string{"prog", "-n", "{n}"}, Batch: batch, Stdin: "in.txt"}).Count(context.Background(), 0, 4, nil)
		if len(f.runs) == 0 {
			t.Fatal("nothing counted")
		}
		for _, r := range f.runs {
			if r.Stdin != "in.txt" {
				t.Errorf("batch %v: run %v has stdin %q", batch, r.Argv, r.Stdin)
			}
		}
	}
}
