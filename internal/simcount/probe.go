package simcount

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/axes"
	"github.com/flybench/flybench/internal/field"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
)

// Repeats is how many times each case is counted. A compiled C program
// counts the same every time; a Go program's runtime does not (its
// background threads run by the clock: examples/spin varied by about
// 0.1% between runs), and a single count could not show it.
const Repeats = 3

// Target is what one case runs.
type Target struct {
	Argv []string
	// Batch marks a command performing n operations itself ({n} in Argv,
	// FLYBENCH_N): it is counted at n and 2n and the difference divided
	// by n, which removes process start-up.
	Batch bool
	// Refusal, when set, is why this case cannot be counted (status
	// unsupported_mode).
	Refusal string
	// Stdin is the file every counted run reads as standard input (Run).
	Stdin string
}

// Counter counts the instructions of each case's operation. It is the
// collection engine's counter probe for the axis instructions_sim.
type Counter struct {
	Tool    Tool
	Targets []Target
	// Names spells the request fields the counts' errors name (the
	// input, the prepare hook); nil spells their paths.
	Names field.Names
	// count runs one execution; nil is Tool.Count.
	count func(ctx context.Context, r Run) (int64, error)
}

// NewCounter counts targets with tool.
func NewCounter(tool Tool, targets []Target) *Counter {
	return &Counter{Tool: tool, Targets: targets, count: tool.Count}
}

// Info is the axis as the run record lists it, with the status the probe
// came up with (collected once valgrind answered) and its reason.
func Info(st axes.Status, reason, source string) ndjson.AxisInfo {
	a, _ := axes.LookupCounter(axes.InstructionsSim)
	return ndjson.AxisInfo{Name: a.Name, Unit: a.Unit, Family: a.Family, Scope: a.Scope, Attribution: a.Attribution,
		Direction: string(a.Direction), Normalization: string(a.Normalization), Status: string(st), Reason: reason,
		Comparison: ndjson.AxisMethodExact, Source: source}
}

// Count measures case c Repeats times; the value is the median, the
// values every count in order. The first failure ends the case with
// status probe_failed and no value.
func (k *Counter) Count(ctx context.Context, c int, iters int64, prepare func() error) ndjson.Counter {
	a, _ := axes.LookupCounter(axes.InstructionsSim)
	rec := ndjson.Counter{Axis: a.Name, Unit: a.Unit, Source: k.Tool.Source()}
	t := k.Targets[c]
	if t.Refusal != "" {
		rec.Status, rec.Reason = string(axes.UnsupportedMode), t.Refusal
		return rec
	}
	for range Repeats {
		v, runs, err := k.once(ctx, t, max(iters, 1), prepare)
		rec.Runs += runs
		if err != nil {
			rec.Status, rec.Reason, rec.Values = string(axes.ProbeFailed), err.Error(), nil
			return rec
		}
		rec.Values = append(rec.Values, v)
	}
	rec.Status = string(axes.Collected)
	med := median(rec.Values)
	rec.Value = &med
	return rec
}

// once takes one count per operation: one run of an exec-mode command, or
// the difference of a batch at 2n and at n, per operation.
func (k *Counter) once(ctx context.Context, t Target, n int64, prepare func() error) (float64, int, error) {
	if !t.Batch {
		total, err := k.run(ctx, Run{Argv: t.Argv, Stdin: t.Stdin}, prepare)
		return float64(total), 1, err
	}
	small, err := k.run(ctx, batchRun(t.Argv, n, t.Stdin), prepare)
	if err != nil {
		return 0, 1, fmt.Errorf("batch of %d: %w", n, err)
	}
	large, err := k.run(ctx, batchRun(t.Argv, 2*n, t.Stdin), prepare)
	if err != nil {
		return 0, 2, fmt.Errorf("batch of %d: %w", 2*n, err)
	}
	if large < small {
		return 0, 2, fmt.Errorf("a batch of %d executed fewer instructions (%d) than a batch of %d (%d): not a count per operation", 2*n, large, n, small)
	}
	return float64(large-small) / float64(n), 2, nil
}

func (k *Counter) run(ctx context.Context, r Run, prepare func() error) (int64, error) {
	if prepare != nil {
		if err := prepare(); err != nil {
			return 0, fmt.Errorf("%s: %w", k.Names.Spell(fieldPrepare), err)
		}
	}
	r.Names = k.Names
	return k.count(ctx, r)
}

// batchRun is a batch command of n operations: {n} replaced in its
// arguments, FLYBENCH_N in its environment, a report channel on fd 3,
// stdin as given.
func batchRun(template []string, n int64, stdin string) Run {
	num := strconv.FormatInt(n, 10)
	argv := make([]string, len(template))
	for i, a := range template {
		argv[i] = strings.ReplaceAll(a, runner.Placeholder, num)
	}
	env := append(environ(), runner.EnvN+"="+num, runner.EnvReportFD+"="+strconv.Itoa(runner.ReportFD))
	return Run{Argv: argv, Env: env, ReportFD: true, Stdin: stdin}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
