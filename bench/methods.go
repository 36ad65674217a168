package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/stats"
)

// method is one way of comparing A with B: fb-pair with flags piped to
// fb-analyze, or hyperfine.
type method struct {
	name  string
	flags []string // fb-pair flags; nil for hyperfine
}

func (m method) isHyperfine() bool { return m.name == "hyperfine" }

// parseVariants reads -variants, "name=flags;name=flags", into paired
// methods; empty means one method, paired, with -pairflags.
func parseVariants(s, pairFlags string) ([]method, error) {
	if strings.TrimSpace(s) == "" {
		return []method{{"paired", strings.Fields(pairFlags)}}, nil
	}
	var out []method
	seen := map[string]bool{"sequential": true, "hyperfine": true}
	for _, v := range splitList(s, ";") {
		name, flags, ok := strings.Cut(v, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("-variants: %q: want name=fb-pair flags", v)
		}
		if seen[name] {
			return nil, fmt.Errorf("-variants: name %q is taken", name)
		}
		seen[name] = true
		out = append(out, method{name, strings.Fields(flags)})
	}
	return out, nil
}

// selectMethods is the paired variants, sequential (-pairflags and
// --sequential) and hyperfine, or the named ones of them in that order.
func (d *decisiveConfig) selectMethods(names []string) ([]method, error) {
	all := append(append([]method(nil), d.variants...),
		method{"sequential", append(strings.Fields(d.pairFlags), "--sequential")}, method{name: "hyperfine"})
	if len(names) == 0 {
		return all, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []method
	for _, m := range all {
		if want[m.name] {
			out = append(out, m)
		}
	}
	if len(out) != len(want) {
		return nil, fmt.Errorf("-methods %s: choose from the paired variants, sequential and hyperfine", strings.Join(names, ","))
	}
	return out, nil
}

// outcome is one comparison's result: its verdict, B's estimated change
// vs A in percent with its interval, and the method's wall time; or the
// error that stopped it.
type outcome struct {
	verdict string
	change  float64
	ci      [2]float64
	elapsed time.Duration
	err     error
}

// cell is the per-run table's entry: verdict letter and estimate.
func (o outcome) cell() string {
	if o.err != nil {
		return "error"
	}
	return fmt.Sprintf("%s %+.2f%%", strings.ToUpper(o.verdict[:1]), o.change)
}

// pairOutcome runs fb-pair with flags on A and B piped to fb-analyze; the
// elapsed time is fb-pair's.
func (b *bench) pairOutcome(flags []string, a, c string) outcome {
	out, elapsed, err := b.pairAnalyze(flags, a, c)
	return comparisonOutcome(out, elapsed, err)
}

// comparisonOutcome is the outcome of fb-analyze's output, or of the
// error that stopped the run.
func comparisonOutcome(out []byte, elapsed time.Duration, err error) outcome {
	o := outcome{elapsed: elapsed, err: err}
	if err != nil {
		return o
	}
	o.err = scanRecords(out, func(typ string, raw []byte) error {
		if typ != ndjson.TypeComparison {
			return nil
		}
		var cmp ndjson.Comparison
		if err := json.Unmarshal(raw, &cmp); err != nil {
			return fmt.Errorf("comparison record: %w", err)
		}
		o.verdict, o.change, o.ci = string(cmp.Verdict), cmp.ChangePct, cmp.ChangeCI
		return nil
	})
	if o.err == nil && o.verdict == "" {
		o.err = fmt.Errorf("fb-analyze wrote no comparison record")
	}
	return o
}

// pairAnalyze runs fb-pair with flags on a and c, its stream piped to
// fb-analyze, and returns fb-analyze's output and fb-pair's wall time.
func (b *bench) pairAnalyze(flags []string, a, c string) ([]byte, time.Duration, error) {
	return b.toolsAnalyze(append(append(flags[:len(flags):len(flags)], "--"), a, c))
}

// toolsAnalyze runs fb-pair with args (after --progress none) piped to
// fb-analyze, and returns fb-analyze's output and fb-pair's wall time.
func (b *bench) toolsAnalyze(args []string) ([]byte, time.Duration, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, 0, err
	}
	args = append([]string{"--progress", "none"}, args...)
	pair, analyze := exec.Command(b.tool("fb-pair"), args...), exec.Command(b.tool("fb-analyze"))
	var out, pairErr, analyzeErr bytes.Buffer
	pair.Stdout, pair.Stderr = w, &pairErr
	analyze.Stdin, analyze.Stdout, analyze.Stderr = r, &out, &analyzeErr
	start := time.Now()
	errPair := startChild(pair)
	w.Close()
	errAnalyze := startChild(analyze)
	r.Close()
	if errPair == nil {
		errPair = waitChild(pair)
	}
	elapsed := time.Since(start)
	if errAnalyze == nil {
		errAnalyze = waitChild(analyze)
	}
	switch {
	case errPair != nil:
		return nil, elapsed, toolError("fb-pair", errPair, pairErr.Bytes())
	case errAnalyze != nil:
		return nil, elapsed, toolError("fb-analyze", errAnalyze, analyzeErr.Bytes())
	}
	return out.Bytes(), elapsed, nil
}

// hyperfineOutcome runs hyperfine -N on A and the contender, the budgeted
// number of runs each, and judges its naive interval.
func (e *experiment) hyperfineOutcome(contender string) outcome {
	start := time.Now()
	res, err := tryHyperfine(e.hyperfine, "--warmup", fmt.Sprint(hyperfineWarmup), "--runs", fmt.Sprint(e.runs), e.cmdA, contender)
	o := outcome{elapsed: time.Since(start), err: err}
	if err == nil && len(res) != 2 {
		o.err = fmt.Errorf("hyperfine exported %d results, want 2", len(res))
	}
	if o.err != nil {
		return o
	}
	o.change, o.ci = meanRatioInterval(res[0], res[1])
	o.verdict = stats.Classify(o.ci[0], o.ci[1], thresholdPct).String()
	return o
}

// meanRatioInterval is the relative change of the means, B/A − 1, in
// percent, with a 95% normal interval whose standard error comes from the
// per-run standard deviations by the delta method: the interval a reader
// of hyperfine's "mean ± σ" would draw, treating runs as independent.
func meanRatioInterval(a, b hyperfineResult) (float64, [2]float64) {
	const z = 1.959964
	ratio := b.Mean / a.Mean
	va := a.Stddev * a.Stddev / (float64(len(a.Times)) * a.Mean * a.Mean)
	vb := b.Stddev * b.Stddev / (float64(len(b.Times)) * b.Mean * b.Mean)
	se := ratio * math.Sqrt(va+vb)
	return 100 * (ratio - 1), [2]float64{100 * (ratio - 1 - z*se), 100 * (ratio - 1 + z*se)}
}
