package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// Settings of the decisive experiment: a 2 s on / 2 s off square-wave load
// against a ~20 ms CPU-bound run and the same with 3% more steps, judged
// against fb-analyze's default practical threshold.
const (
	loadPeriod      = 4 * time.Second
	loadDuty        = "0.5"
	runTarget       = 20e6 // ns of one run of A when -steps is 0
	extraWorkPct    = 3
	thresholdPct    = 1.0
	hyperfineWarmup = 3
	truthSamples    = 100
	truthWidthPct   = 1.0 // widest truth interval trusted without a warning
)

// decisiveConfig is the decisive section's settings, from the command line.
type decisiveConfig struct {
	bin       string
	trials    int
	loads     []string
	budget    time.Duration
	pairFlags string
	variants  []method // the paired methods: -variants, or paired=<pairflags>
	methods   []method // what runs, in column order
	steps     int
	truthTime time.Duration
	rawFlags  []string // -variants and -methods as given, for the command line
}

// validate rejects settings the section cannot run with.
func (d decisiveConfig) validate() error {
	if d.trials < 1 {
		return fmt.Errorf("-trials %d: need at least 1", d.trials)
	}
	if d.budget <= 0 || d.truthTime <= 0 {
		return fmt.Errorf("-budget and -truth must be positive")
	}
	if len(d.loads) == 0 {
		return fmt.Errorf("-loads: name at least one of idle, one-cpu, all-cpu")
	}
	for _, l := range d.loads {
		if _, err := loadThreads(l); err != nil {
			return err
		}
	}
	return nil
}

// loadThreads is the number of busy threads of a named load; idle has none.
func loadThreads(name string) (int, error) {
	switch name {
	case "idle":
		return 0, nil
	case "one-cpu":
		return 1, nil
	case "all-cpu":
		return runtime.NumCPU(), nil
	}
	return 0, fmt.Errorf("-loads: unknown load %q: use idle, one-cpu or all-cpu", name)
}

// command is the bench command line that reproduces the section.
func (d decisiveConfig) command() string {
	args := []string{"go run ./bench -bin", shellQuote(d.bin), "-only decisive",
		"-trials", fmt.Sprint(d.trials), "-loads", strings.Join(d.loads, ","), "-budget", d.budget.String(),
		"-pairflags", shellQuote(d.pairFlags), "-steps", fmt.Sprint(d.steps), "-truth", d.truthTime.String()}
	return strings.Join(append(args, d.rawFlags...), " ")
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>()*?[]#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// experiment is one decisive section's fixed inputs, measured at its start.
type experiment struct {
	decisiveConfig
	b          *bench
	cmdA, cmdB string
	truth      float64 // B's true change vs A in percent, measured idle
	runs       int     // hyperfine --runs per command
	hyperfine  string  // path, empty when not installed
	rng        *rand.Rand
	truthAuto  bool // the truth run chooses its sample count (mixed); 100 pairs otherwise
	results    map[cellKey][]outcome
}

// cellKey names one cell of the experiment: a load, a kind and a method.
type cellKey struct {
	load   string
	kind   string
	method string
}

// kinds are the two comparisons: A against itself and A against B.
var kinds = []string{"A/A", "A/B"}

// decisive runs the proof section: for every load, trial, kind and method
// one comparison under a fresh load at a random phase, then the summary.
func (b *bench) decisive(d decisiveConfig) {
	section("decisive experiment (issue 8 §6): A/A and A/B (3% more work) per load, paired vs --sequential vs hyperfine -N")
	e := &experiment{decisiveConfig: d, b: b, results: map[cellKey][]outcome{},
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 8))}
	fmt.Printf("  command: %s\n", d.command())
	fmt.Printf("  -pairflags %q; estimated duration: %v\n", d.pairFlags, e.estimate().Round(time.Minute))
	e.setup()
	for _, load := range d.loads {
		e.runLoad(load)
	}
	e.printSummary()
}

// estimate is the section's expected wall time: every run's budget, the
// random phase wait of loaded runs, the calibration and the truth run.
func (e *experiment) estimate() time.Duration {
	var total time.Duration
	perLoad := time.Duration(e.trials*len(kinds)*len(e.methods)) * e.budget
	for _, l := range e.loads {
		total += perLoad
		if l != "idle" {
			total += time.Duration(e.trials*len(kinds)*len(e.methods)) * loadPeriod / 2
		}
	}
	return total + e.truthTime + 10*time.Second
}

// setup chooses the commands, measures the truth on the idle machine, sizes
// hyperfine's run count to the budget, and prints all of it.
func (e *experiment) setup() {
	steps := e.steps
	if steps == 0 {
		steps = e.b.calibrateSteps()
	}
	spin := e.b.tool("spin")
	e.cmdA = fmt.Sprintf("%s -n %d", spin, steps)
	e.cmdB = fmt.Sprintf("%s -n %d", spin, steps*(100+extraWorkPct)/100)
	fmt.Printf("  A = spin -n %d, B = spin -n %d (%d%% more steps)\n", steps, steps*(100+extraWorkPct)/100, extraWorkPct)
	tA, tB := e.measureTruth()
	e.runs = max(10, int(e.budget.Seconds()*1e9/(tA+tB))-hyperfineWarmup)
	e.hyperfine, _ = exec.LookPath("hyperfine")
	e.printMethods(tA, tB)
	fmt.Printf("  targets: A/A 0/%d false verdicts with |estimate| <= 2%%; A/B detected (interval clears the %g%% threshold, right sign) in >= 9/10 under all-cpu, 10/10 under one-cpu\n",
		e.trials, thresholdPct)
	fmt.Println("  per run: verdict letter (R reference faster, C contender faster, E practically equivalent, I inconclusive) and estimated change of B vs A")
}

// printMethods prints each method's command, and drops hyperfine when it
// is not installed.
func (e *experiment) printMethods(tA, tB float64) {
	var kept []method
	for _, m := range e.methods {
		switch {
		case m.isHyperfine() && e.hyperfine == "":
			fmt.Println("  hyperfine: not installed, skipped (make bench installs it with apt-get when run as root)")
			continue
		case m.isHyperfine():
			fmt.Printf("  %-12s hyperfine -N --warmup %d --runs %d A B  (sized to -budget %v from the idle run times: %.1f s of runs)\n",
				m.name, hyperfineWarmup, e.runs, e.budget, float64(e.runs+hyperfineWarmup)*(tA+tB)/1e9)
		default:
			fmt.Printf("  %-12s fb-pair %s -- A B | fb-analyze\n", m.name, strings.Join(m.flags, " "))
		}
		kept = append(kept, m)
	}
	e.methods = kept
}

// calibrateSteps picks spin's step count whose run takes about runTarget
// on this machine, in whole 100,000s, from start-up and per-step cost.
func (b *bench) calibrateSteps() int {
	empty, perStep := b.spinCost()
	if perStep <= 0 {
		return spinProbe
	}
	steps := int((runTarget-empty)/perStep/1e5+0.5) * 100_000
	fmt.Printf("  calibration: spin start-up %.2f ms, %.2f ns/step\n", empty/1e6, perStep)
	return max(steps, 100_000)
}

// spinProbe is the step count spinCost times against spin -n 0.
const spinProbe = 10_000_000

// spinCost is spin's start-up time and time per step on this machine, in
// ns, from fb-sample's medians of spin -n 0 and spin -n spinProbe.
func (b *bench) spinCost() (float64, float64) {
	return b.linearCost(b.tool("spin")+" -n 0", b.tool("spin")+" -n %d", spinProbe)
}

// linearCost is a command's fixed cost and its cost per step, in ns, from
// the median run times of its empty run and of a run of probe steps
// (format has one %d for the steps).
func (b *bench) linearCost(empty, format string, probe int) (float64, float64) {
	fixed := b.sampleMedian(empty)
	full := b.sampleMedian(fmt.Sprintf(format, probe))
	return fixed, (full - fixed) / float64(probe)
}

// sampleMedian is fb-sample's median per-run time of a command, in ns.
func (b *bench) sampleMedian(command string) float64 {
	return b.sampledMedian("--progress", "none", "--samples", "20", "-t", "400ms", "--", command)
}

// sampledMedian is the median time per operation of an fb-sample run with
// args, in ns.
func (b *bench) sampledMedian(args ...string) float64 {
	out, err := exec.Command(b.tool("fb-sample"), args...).Output()
	check(err)
	var ops []float64
	eachRecord(out, func(typ string, raw []byte) {
		if typ == ndjson.TypeSample {
			var s ndjson.Sample
			check(json.Unmarshal(raw, &s))
			ops = append(ops, s.OpNS)
		}
	})
	return median(ops)
}

// measureTruth compares A with B in one long paired run on the idle
// machine, prints it, stores B's change as the truth, and returns each
// side's median run time in ns.
func (e *experiment) measureTruth(extra ...string) (float64, float64) {
	flags := []string{"-t", e.truthTime.String(), "--samples", fmt.Sprint(truthSamples)}
	if e.truthAuto {
		flags = flags[:2] // as many pairs as fit: the narrowest truth the time allows
	}
	flags = append(flags, extra...)
	start := time.Now()
	out, _, err := e.b.pairAnalyze(flags, e.cmdA, e.cmdB)
	check(err)
	elapsed := time.Since(start)
	var cmp ndjson.Comparison
	var med [2]float64
	eachRecord(out, func(typ string, raw []byte) {
		switch typ {
		case ndjson.TypeComparison:
			check(json.Unmarshal(raw, &cmp))
		case ndjson.TypeSummary:
			var s ndjson.Summary
			check(json.Unmarshal(raw, &s))
			if s.Case < len(med) {
				med[s.Case] = s.Median
			}
		}
	})
	e.truth = cmp.ChangePct
	fmt.Printf("  one run (idle): A %.2f ms, B %.2f ms\n", med[0]/1e6, med[1]/1e6)
	fmt.Printf("  truth (idle, no load started; fb-pair %s, %v): B vs A %+.2f%% [%+.2f%%, %+.2f%%]; A/A truth 0\n",
		strings.Join(flags, " "), elapsed.Round(100*time.Millisecond), cmp.ChangePct, cmp.ChangeCI[0], cmp.ChangeCI[1])
	if width := cmp.ChangeCI[1] - cmp.ChangeCI[0]; width > truthWidthPct {
		fmt.Printf("  warning: the truth's interval is %.1f points wide (over %g): the machine was not quiet, so A/B estimate errors below are no better than that\n",
			width, truthWidthPct)
	}
	return med[0], med[1]
}

// runLoad runs every trial under one load and prints a row per trial.
func (e *experiment) runLoad(load string) {
	threads, _ := loadThreads(load)
	if threads == 0 {
		fmt.Printf("\n  -- load idle (no load started), %d trials\n", e.trials)
	} else {
		fmt.Printf("\n  -- load %s: load -period %v -duty %s -threads %d, started at a random phase before each run, %d trials\n",
			load, loadPeriod, loadDuty, threads, e.trials)
	}
	e.printRowHeader()
	for t := 0; t < e.trials; t++ {
		e.runTrial(load, t)
	}
}

// runTrial runs every kind and method once, starting at a different one
// each trial so none always runs first, and prints the row.
func (e *experiment) runTrial(load string, t int) {
	var keys []cellKey
	for _, k := range kinds {
		for _, m := range e.methods {
			keys = append(keys, cellKey{load, k, m.name})
		}
	}
	got := map[cellKey]outcome{}
	for i := range keys {
		key := keys[(t+i)%len(keys)]
		got[key] = e.runOne(key)
		e.results[key] = append(e.results[key], got[key])
	}
	fmt.Printf("  %-5d", t+1)
	for _, key := range keys {
		fmt.Printf("  %*s", e.cellWidth(), got[key].cell())
	}
	fmt.Println()
	for _, key := range keys {
		if err := got[key].err; err != nil {
			fmt.Printf("        ! %s %s: %v\n", key.kind, key.method, err)
		}
	}
}

// printRowHeader prints the per-run table's column names.
func (e *experiment) printRowHeader() {
	fmt.Printf("  %-5s", "trial")
	for _, k := range kinds {
		for _, m := range e.methods {
			fmt.Printf("  %*s", e.cellWidth(), k+" "+m.name)
		}
	}
	fmt.Println()
}

// cellWidth fits the widest column name and a cell like "R +12.34%".
func (e *experiment) cellWidth() int {
	w := 9
	for _, m := range e.methods {
		w = max(w, len("A/A ")+len(m.name))
	}
	return w
}

// runOne runs one comparison under a fresh load, which it stops after.
func (e *experiment) runOne(key cellKey) outcome {
	stop, err := e.startLoad(key.load)
	if err != nil {
		return outcome{err: err}
	}
	defer stop()
	contender := e.cmdA
	if key.kind == "A/B" {
		contender = e.cmdB
	}
	m := e.method(key.method)
	if m.isHyperfine() {
		return e.hyperfineOutcome(contender)
	}
	return e.b.pairOutcome(m.flags, e.cmdA, contender)
}

// startLoad starts a named load, waits a random part of its period so each
// run begins at a random phase, and returns the function that kills and
// reaps it.
func (e *experiment) startLoad(load string) (func(), error) {
	threads, _ := loadThreads(load)
	if threads == 0 {
		return func() {}, nil
	}
	cmd := exec.Command(e.b.tool("load"), "-period", loadPeriod.String(), "-duty", loadDuty, "-threads", fmt.Sprint(threads))
	if err := startChild(cmd); err != nil {
		return nil, fmt.Errorf("start load: %w", err)
	}
	time.Sleep(time.Duration(e.rng.Int64N(int64(loadPeriod))))
	return func() { stopChild(cmd) }, nil
}

// method is the method of a name.
func (e *experiment) method(name string) method {
	for _, m := range e.methods {
		if m.name == name {
			return m
		}
	}
	panic("bench: unknown method " + name)
}
