package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
	"github.com/flybench/flybench/pkg/probes"
)

// trivial is the command whose per-run time is compared.
const trivial = "/bin/true"

// runsPerRound is how many runs each method times per round.
const runsPerRound = 300

// overhead interleaves, round by round and in rotating order, a bare loop,
// fb-sample and (when present) hyperfine -N on the same trivial command, and
// compares medians.
func (b *bench) overhead(rounds int) {
	section(fmt.Sprintf("exec overhead: %s, %d interleaved rounds of ~%d runs per method", trivial, rounds, runsPerRound))
	var bare, fb, hf, perSample []float64
	var clock ndjson.Clock
	hyperfine, _ := exec.LookPath("hyperfine")
	methods := []func(){
		func() { bare = append(bare, bareProcess(runsPerRound)) },
		func() {
			op, over, clk := b.sampleRun(runsPerRound)
			fb, perSample, clock = append(fb, op), append(perSample, over), clk
		},
	}
	if hyperfine != "" {
		methods = append(methods, func() { hf = append(hf, hyperfineRun(hyperfine, runsPerRound)) })
	}
	// Each round starts with the next method, so no method always follows
	// the same one or always runs first: a drifting host is shared out.
	for r := 0; r < rounds; r++ {
		for k := range methods {
			methods[(r+k)%len(methods)]()
		}
	}
	mb, mf := median(bare), median(fb)
	ratios := make([]float64, len(fb))
	for i := range fb {
		ratios[i] = 100 * (fb[i]/bare[i] - 1)
	}
	fmt.Printf("  bare fork/exec/wait4 loop   %9.1f µs/run  (median of %d rounds, in a fresh process like the tools)\n", mb/1e3, rounds)
	fmt.Printf("  fb-sample                   %9.1f µs/run  %+6.2f%% vs bare loop, paired by round: median %+.2f%%, range %+.2f%% .. %+.2f%% (target: within 5%%)\n",
		mf/1e3, 100*(mf/mb-1), median(ratios), minOf(ratios), maxOf(ratios))
	if hyperfine == "" {
		fmt.Printf("  hyperfine -N                not installed (apt-get install hyperfine)\n")
	} else {
		mh := median(hf)
		fmt.Printf("  hyperfine -N                %9.1f µs/run  %+6.2f%% vs bare loop\n", mh/1e3, 100*(mh/mb-1))
	}
	fmt.Printf("  fb-sample untimed overhead  %9.1f µs/sample (sampling phase minus timed batches)\n", median(perSample)/1e3)
	fmt.Printf("  clock %s: nominal %.0f ns, observed step %.0f ns, read median %.0f ns, min %.0f ns\n",
		clock.Backend, clock.NominalNS, clock.ObservedStepNS, clock.ReadMedianNS, clock.ReadMinNS)
	fmt.Printf("  quantization floor of a 1-run batch: %.0f ns/op; adjacent-read cost is the practical floor\n", clock.NominalNS)
}

// bareProcess runs the bare loop in a fresh process (this program again),
// so it pays what a freshly started tool pays: the comparison is between
// loops, not between a warm process and a cold one.
func bareProcess(n int) float64 {
	out, err := exec.Command(os.Args[0], "-bareloop", fmt.Sprint(n)).Output()
	check(err)
	v, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	check(err)
	return v
}

// bareRun times n runs with runner.BareLoop and returns ns per run.
func bareRun(n int) float64 {
	ns, err := runner.BareLoop([]string{trivial}, n, probes.SampleClock{})
	check(err)
	return float64(ns) / float64(n)
}

// sampleRun runs fb-sample on about n runs of the trivial command and
// returns the median per-run time it measured, its untimed overhead per
// sample, and its clock characterization.
func (b *bench) sampleRun(n int) (float64, float64, ndjson.Clock) {
	r := b.sampleTrivial(n)
	return r.medianOp(), r.untimedPerSample(), r.run.Clock
}

// sampled is what a bench needs from an fb-sample stream.
type sampled struct {
	ops   []float64
	timed int64
	run   ndjson.Run
	end   ndjson.End
}

func (r sampled) medianOp() float64 { return median(r.ops) }

// untimedPerSample is the sampling phase's time outside timed batches,
// per sample.
func (r sampled) untimedPerSample() float64 {
	return float64(r.end.SamplingNS-r.timed) / float64(len(r.ops))
}

// sampleTrivial runs fb-sample for 30 samples over about n ms of the
// trivial command, with extra flags.
func (b *bench) sampleTrivial(n int, extra ...string) sampled {
	args := append([]string{"--progress", "none", "--warmup", "20ms", "--samples", "30",
		"--measurement-time", fmt.Sprintf("%dms", n)}, extra...)
	out, err := exec.Command(b.tool("fb-sample"), append(args, "--", trivial)...).Output()
	check(err)
	var r sampled
	eachRecord(out, func(typ string, raw []byte) {
		switch typ {
		case ndjson.TypeSample:
			var s ndjson.Sample
			check(json.Unmarshal(raw, &s))
			r.ops = append(r.ops, s.OpNS)
			r.timed += s.WallNS
		case ndjson.TypeRun:
			check(json.Unmarshal(raw, &r.run))
		case ndjson.TypeEnd:
			check(json.Unmarshal(raw, &r.end))
		}
	})
	return r
}

// hyperfineRun returns hyperfine's median per-run time, in ns.
func hyperfineRun(path string, n int) float64 {
	return hyperfine(path, "--warmup", "10", "--runs", fmt.Sprint(n), trivial)[0].Median * 1e9
}

// hyperfineResult is one command's result in hyperfine's JSON export, in
// seconds.
type hyperfineResult struct {
	Mean   float64   `json:"mean"`
	Median float64   `json:"median"`
	Stddev float64   `json:"stddev"`
	Times  []float64 `json:"times"`
}

// hyperfine runs hyperfine -N with args and returns its results.
func hyperfine(path string, args ...string) []hyperfineResult {
	res, err := tryHyperfine(path, args...)
	check(err)
	return res
}

// tryHyperfine runs hyperfine -N with args and returns its results, or an
// error that carries the last line hyperfine wrote to stderr.
func tryHyperfine(path string, args ...string) ([]hyperfineResult, error) {
	file, err := os.CreateTemp("", "hyperfine-*.json")
	if err != nil {
		return nil, err
	}
	file.Close()
	defer os.Remove(file.Name())
	args = append([]string{"-N", "--style", "none", "--export-json", file.Name()}, args...)
	cmd := exec.Command(path, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := runChild(cmd); err != nil {
		return nil, toolError("hyperfine", err, stderr.Bytes())
	}
	data, err := os.ReadFile(file.Name())
	if err != nil {
		return nil, err
	}
	var res struct {
		Results []hyperfineResult `json:"results"`
	}
	if err := json.Unmarshal(data, &res); err != nil {
		return nil, fmt.Errorf("hyperfine export %q: %w", file.Name(), err)
	}
	return res.Results, nil
}

// toolError is a failed tool's error with what it wrote to stderr, on one
// line.
func toolError(tool string, err error, stderr []byte) error {
	msg := strings.Join(splitList(string(stderr), "\n"), " / ")
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	if msg != "" {
		return fmt.Errorf("%s: %w: %s", tool, err, msg)
	}
	return fmt.Errorf("%s: %w", tool, err)
}

// eachRecord calls fn with every record of an NDJSON stream and its type;
// a malformed line ends the bench.
func eachRecord(data []byte, fn func(typ string, raw []byte)) {
	check(scanRecords(data, func(typ string, raw []byte) error {
		fn(typ, raw)
		return nil
	}))
}

// scanRecords calls fn with every record of an NDJSON stream and its type,
// and returns the first malformed line's or fn's error.
func scanRecords(data []byte, fn func(typ string, raw []byte) error) error {
	for i, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var h ndjson.Header
		if err := json.Unmarshal(line, &h); err != nil {
			return fmt.Errorf("stream line %d: %w", i+1, err)
		}
		if err := fn(h.Type, line); err != nil {
			return err
		}
	}
	return nil
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minOf(x []float64) float64 {
	m := x[0]
	for _, v := range x {
		m = min(m, v)
	}
	return m
}

func maxOf(x []float64) float64 {
	m := x[0]
	for _, v := range x {
		m = max(m, v)
	}
	return m
}
