package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Settings of the mixed-interference section (issue 19 §3): B takes 2%
// more time than A (the memory program 3%, issue 22's goal), its extra
// steps calibrated on this machine so that start-up and set-up are part
// of the whole (2% more steps of spin is about 1.7% more time); each run
// waits a random part of mixedMaxWait after its interferer starts.
const (
	mixedExtraPct  = 2
	memoryExtraPct = 3
	mixedMaxWait   = 2 * time.Second
	mixedStopWait  = 5 * time.Second // SIGTERM to SIGKILL for an interferer
	computeTarget  = 20e6            // ns: the compute program's run
	shortTarget    = 1.9e6           // ns: the short program's run, start-up included
	longTarget     = 150e6           // ns: the long program's run
	chaseTarget    = 80e6            // ns: the memory program's chase, set-up excluded
	ioKiB          = 1000            // io: iobound -kib of A (B: 2% more)
	ioReps         = 4               // io: iobound -n
	widthGoal      = 1.3             // widths within this factor of the oracle's
	coverGoal      = 0.93            // share of intervals covering the truth
)

// The section's programs and methods, in table order.
var (
	mixedPrograms = []string{"compute", "memory", "io", "short", "long"}
	mixedMethods  = []string{"paired", "until", "cpu", "pinned", "duet", "retake", "sequential", "hyperfine"}
)

// mixedConfig is the mixed-interference section's settings, from the
// -mixed-* flags.
type mixedConfig struct {
	bin      string
	programs []string
	methods  []string
	trials   int
	budget   time.Duration // wall time of one comparison
	truth    time.Duration // fb-pair -t of each program's quiet run
	quiet    bool          // no interferer: the methods on the machine as it is
	keep     string        // directory for every fb-pair run's analysed stream; "" keeps none
}

// validate rejects settings the section cannot run with.
func (c mixedConfig) validate() error {
	switch {
	case c.trials < 1:
		return fmt.Errorf("-mixed-trials %d: need at least 1", c.trials)
	case c.budget < 2*time.Second || c.truth <= 0:
		return fmt.Errorf("-mixed-budget must be at least 2s and -mixed-truth positive")
	}
	if err := oneOf("-mixed-programs", c.programs, mixedPrograms); err != nil {
		return err
	}
	return oneOf("-mixed-methods", c.methods, mixedMethods)
}

// oneOf checks that names is a non-empty list of known names.
func oneOf(flagName string, names, known []string) error {
	if len(names) == 0 {
		return fmt.Errorf("%s: name at least one of %s", flagName, strings.Join(known, ","))
	}
	for _, n := range names {
		if !strings.Contains(","+strings.Join(known, ",")+",", ","+n+",") {
			return fmt.Errorf("%s: unknown %q: use %s", flagName, n, strings.Join(known, ","))
		}
	}
	return nil
}

// command is the bench command line that reproduces the section.
func (c mixedConfig) command() string {
	return strings.Join([]string{"go run ./bench -bin", shellQuote(c.bin), "-only mixed",
		"-mixed-programs", strings.Join(c.programs, ","), "-mixed-methods", strings.Join(c.methods, ","),
		"-mixed-trials", fmt.Sprint(c.trials), "-mixed-budget", c.budget.String(),
		"-mixed-truth", c.truth.String(), fmt.Sprintf("-mixed-quiet=%v", c.quiet)}, " ") + keepFlag(c.keep)
}

// method is a named method with its fb-pair flags at the budget: -t 90%
// and a hard stop at 95% of it (18s and 19s of 20s); the paired methods
// record the interference watch's windows.
func (c mixedConfig) method(name string) method {
	t, stop := (c.budget * 9 / 10).String(), (c.budget * 19 / 10 / 2).String()
	watch := []string{"--watch", "observe"}
	switch name {
	case "paired":
		return method{name, append([]string{"-t", t, "--max-sampling-time", stop}, watch...)}
	case "until":
		return method{name, append([]string{"--until", "decision", "--max-time", stop}, watch...)}
	case "cpu":
		return method{name, append([]string{"--timer", "cpu", "-t", t, "--max-sampling-time", stop}, watch...)}
	case "pinned":
		return method{name, append([]string{"--cpu", pinnedCPU(), "-t", t, "--max-sampling-time", stop}, watch...)}
	case "duet":
		return method{name, append([]string{"--duet", "-t", t, "--max-sampling-time", stop}, watch...)}
	case "retake":
		// Every contaminated window is collected again, without a
		// retake limit: the hard stop ends the run with the clean pairs
		// it has.
		return method{name, []string{"-t", t, "--max-sampling-time", stop, "--watch", "retake", "--max-retakes", "1000000"}}
	case "sequential":
		return method{name, []string{"--sequential", "-t", t, "--max-sampling-time", stop}}
	}
	return method{name: "hyperfine"}
}

// keepFlag is the -mixed-keep flag of the command line, "" without one.
func keepFlag(dir string) string {
	if dir == "" {
		return ""
	}
	return " -mixed-keep " + shellQuote(dir)
}

// pinnedCPU is the logical CPU the pinned method places both sides on:
// the last one, which takes fewer of the machine's interrupts than CPU 0
// on the machines measured here.
func pinnedCPU() string { return fmt.Sprint(max(0, runtime.NumCPU()-1)) }

// estimate is the section's expected wall time: every comparison's budget
// and mean wait, and each program's quiet run.
func (c mixedConfig) estimate() time.Duration {
	perRun := c.budget + mixedMaxWait/2 + time.Second
	runs := time.Duration(len(c.programs) * c.trials * len(kinds) * len(c.methods))
	return runs*perRun + time.Duration(len(c.programs))*(c.truth+5*time.Second) + 10*time.Second
}

// program is one benchmark program of the section: A and B (2% more time, the memory program 3%)
// as command lines, and what was measured of them on the quiet machine.
type program struct {
	name, a, b string
	what       string // how B differs from A, for the header
}

// mixedRun is the section as it runs: its settings, where its scratch
// files go, and every comparison's outcome.
type mixedRun struct {
	mixedConfig
	b            *bench
	rng          *rand.Rand
	hyperfine    string                     // path, empty when not installed
	interfereDir string                     // interfere -dir
	ioDir        string                     // iobound -dir
	truths       map[string]float64         // each program's quiet truth, unplaced
	pinnedTruths map[string]float64         // each program's quiet truth pinned to pinnedCPU, the pinned method's
	results      map[cellKey][]mixedOutcome // cellKey.load is the program
}

// mixedOutcome is one comparison's outcome, the width the run's own clean
// pairs would give if independent (NaN when not computed) and their
// number (-1 when not computed), and the seed of the interferer it ran
// under.
type mixedOutcome struct {
	outcome
	oracle float64
	pairs  int
	seed   uint32
}

// mixed runs the section: for every program its quiet truth, then every
// trial, kind and method under a fresh interferer, then the summary.
func (b *bench) mixed(c mixedConfig) {
	section("interference that is not a square wave (issue 19 §3): A/A and A/B (B 2% more time; memory 3%) per program and method, under a seeded random interferer")
	m := &mixedRun{mixedConfig: c, b: b, truths: map[string]float64{}, pinnedTruths: map[string]float64{}, results: map[cellKey][]mixedOutcome{},
		rng:          rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 19)),
		interfereDir: filepath.Join(b.tmp, "interfere"), ioDir: filepath.Join(b.tmp, "iobound")}
	check(os.MkdirAll(m.interfereDir, 0o755))
	check(os.MkdirAll(m.ioDir, 0o755))
	if c.keep != "" {
		check(os.MkdirAll(c.keep, 0o755))
	}
	m.hyperfine, _ = exec.LookPath("hyperfine")
	fmt.Printf("  command: %s\n", c.command())
	fmt.Printf("  estimated duration: %v\n", c.estimate().Round(time.Minute))
	m.printMethods()
	for _, p := range m.commands() {
		m.runProgram(p)
	}
	m.printSummary()
}

// printMethods prints each method's command, and drops hyperfine when it
// is not installed.
func (m *mixedRun) printMethods() {
	var kept []string
	for _, name := range m.methods {
		meth := m.method(name)
		switch {
		case meth.isHyperfine() && m.hyperfine == "":
			fmt.Println("  hyperfine: not installed, skipped (make bench installs it with apt-get when run as root)")
			continue
		case meth.isHyperfine():
			fmt.Printf("  %-10s hyperfine -N --warmup %d --runs N A B, N sized to -mixed-budget %v from each program's quiet run times\n",
				name, hyperfineWarmup, m.budget)
		default:
			fmt.Printf("  %-10s fb-pair %s -- A B | fb-analyze\n", name, strings.Join(meth.flags, " "))
		}
		kept = append(kept, name)
	}
	m.methods = kept
	if m.quiet {
		fmt.Println("  every run: no interferer (-mixed-quiet), the machine as it is")
	} else {
		fmt.Printf("  every run: interfere -seed <random> -dir <scratch> started, a random 0-%v wait, the run, then SIGTERM and reap\n", mixedMaxWait)
	}
	fmt.Println("  per run: verdict letter (R reference faster, C contender faster, E practically equivalent, I inconclusive) and estimated change of B vs A")
}

// commands is the chosen programs' commands: spin's step counts from this
// machine's spin cost, the others' knobs fixed.
func (m *mixedRun) commands() []program {
	var startup, perStep float64
	var out []program
	for _, name := range m.programs {
		switch {
		case name == "memory":
			chase := m.b.tool("chase")
			setup, perStep := m.b.linearCost(chase+" -n 0", chase+" -n %d", chaseProbe)
			fmt.Printf("  calibration: chase (32 MiB) set-up %.2f ms, %.2f ns/step\n", setup/1e6, perStep)
			out = append(out, m.chaseProgram(setup, perStep))
			continue
		case (name == "compute" || name == "short" || name == "long") && perStep == 0:
			startup, perStep = m.b.spinCost()
			fmt.Printf("  calibration: spin start-up %.2f ms, %.2f ns/step\n", startup/1e6, perStep)
		}
		out = append(out, m.program(name, startup, perStep))
	}
	return out
}

// chaseProbe is the chase -n of the memory program's calibration run.
const chaseProbe = 400_000

// chaseProgram is the memory program: a chase of about chaseTarget, and B
// memoryExtraPct more time, set-up included.
func (m *mixedRun) chaseProgram(setup, perStep float64) program {
	chase := m.b.tool("chase")
	steps := chaseProbe
	if perStep > 0 {
		steps = max(10_000, int(chaseTarget/perStep/1e4+0.5)*10_000)
	}
	b := moreTime(steps, setup, perStep, memoryExtraPct)
	return program{"memory", fmt.Sprintf("%s -n %d", chase, steps), fmt.Sprintf("%s -n %d", chase, b),
		fmt.Sprintf("chase (32 MiB) -n %d vs -n %d (B %d%% more time: set-up %.1f ms + %.1f ms of chase)",
			steps, b, memoryExtraPct, setup/1e6, float64(steps)*perStep/1e6)}
}

// moreTime is the step count that takes pct percent more time than steps,
// with a fixed cost of fixed ns and perStep ns per step (pct percent more
// steps when the costs are unknown).
func moreTime(steps int, fixed, perStep float64, pct int) int {
	if perStep <= 0 {
		return steps * (100 + pct) / 100
	}
	extra := float64(pct) / 100 * (fixed + float64(steps)*perStep) / perStep
	return steps + int(extra+0.5)
}

// program is one named program's A and B.
func (m *mixedRun) program(name string, startup, perStep float64) program {
	more := func(n int) int { return n * (100 + mixedExtraPct) / 100 }
	switch name {
	case "io":
		io := fmt.Sprintf("%s -dir %s -n %d", m.b.tool("iobound"), m.ioDir, ioReps)
		return program{name, fmt.Sprintf("%s -kib %d", io, ioKiB), fmt.Sprintf("%s -kib %d", io, more(ioKiB)),
			fmt.Sprintf("iobound -n %d -kib %d vs -kib %d", ioReps, ioKiB, more(ioKiB))}
	}
	target := map[string]float64{"compute": computeTarget, "short": shortTarget, "long": longTarget}[name]
	steps := spinStepsFor(target, startup, perStep)
	spin := m.b.tool("spin")
	b := moreTime(steps, startup, perStep, mixedExtraPct)
	return program{name, fmt.Sprintf("%s -n %d", spin, steps), fmt.Sprintf("%s -n %d", spin, b),
		fmt.Sprintf("spin -n %d vs -n %d (a %.1f ms target, B %d%% more time with start-up)", steps, b, target/1e6, mixedExtraPct)}
}

// spinStepsFor is the step count of a spin run of about target ns, in
// whole 10,000s (so 2% more is exact), at least 10,000.
func spinStepsFor(target, startup, perStep float64) int {
	if perStep <= 0 {
		return spinProbe
	}
	return max(10_000, int((target-startup)/perStep/1e4+0.5)*10_000)
}

// runProgram measures a program's quiet truth, then runs its trials.
func (m *mixedRun) runProgram(p program) {
	fmt.Printf("\n  -- program %s: %s, %d trials\n", p.name, p.what, m.trials)
	e := &experiment{decisiveConfig: decisiveConfig{truthTime: m.truth}, b: m.b, cmdA: p.a, cmdB: p.b, hyperfine: m.hyperfine, truthAuto: true}
	tA, tB := e.measureTruth()
	m.truths[p.name] = e.truth
	if slices.Contains(m.methods, "pinned") {
		// A program placed on one CPU is not the same run as one the
		// scheduler moves (a Go program's GOMAXPROCS follows its
		// affinity): the pinned method's truth is a quiet pinned run.
		pinned := *e
		pinned.measureTruth("--cpu", pinnedCPU())
		m.pinnedTruths[p.name] = pinned.truth
	}
	e.runs = max(10, int(m.budget.Seconds()*1e9/(tA+tB))-hyperfineWarmup)
	if m.hyperfine != "" {
		fmt.Printf("  hyperfine --runs %d\n", e.runs)
	}
	m.printRowHeader()
	for t := 0; t < m.trials; t++ {
		m.runTrial(e, p, t)
	}
}

// runTrial runs every kind and method once, starting at a different one
// each trial so none always runs first, and prints the row and the
// interferer seeds.
func (m *mixedRun) runTrial(e *experiment, p program, t int) {
	var keys []cellKey
	for _, k := range kinds {
		for _, name := range m.methods {
			keys = append(keys, cellKey{p.name, k, name})
		}
	}
	got := map[cellKey]mixedOutcome{}
	for i := range keys {
		key := keys[(t+i)%len(keys)]
		got[key] = m.runOne(e, key)
		m.results[key] = append(m.results[key], got[key])
	}
	fmt.Printf("  %-5d", t+1)
	for _, key := range keys {
		fmt.Printf("  %*s", m.cellWidth(), got[key].cell())
	}
	fmt.Printf("\n  %-5s", "seed")
	for _, key := range keys {
		fmt.Printf("  %*d", m.cellWidth(), got[key].seed)
	}
	fmt.Println()
	for _, key := range keys {
		if err := got[key].err; err != nil {
			fmt.Printf("        ! %s %s: %v\n", key.kind, key.method, err)
		}
	}
}

// printRowHeader prints the per-run table's column names.
func (m *mixedRun) printRowHeader() {
	fmt.Printf("  %-5s", "trial")
	for _, k := range kinds {
		for _, name := range m.methods {
			fmt.Printf("  %*s", m.cellWidth(), k+" "+name)
		}
	}
	fmt.Println()
}

// cellWidth fits the widest column name, a cell like "R +12.34%" and a
// seed.
func (m *mixedRun) cellWidth() int {
	w := 10
	for _, name := range m.methods {
		w = max(w, len("A/A ")+len(name))
	}
	return w
}

// truthOf is the quiet truth a method's A/B intervals are judged against.
func (m *mixedRun) truthOf(program, method string) float64 {
	if method == "pinned" {
		return m.pinnedTruths[program]
	}
	return m.truths[program]
}

// runOne runs one comparison under a fresh interferer, which it stops
// after.
func (m *mixedRun) runOne(e *experiment, key cellKey) mixedOutcome {
	seed := m.rng.Uint32()
	stop, err := m.startInterferer(seed)
	if err != nil {
		return mixedOutcome{outcome: outcome{err: err}, oracle: math.NaN(), pairs: -1, seed: seed}
	}
	defer stop()
	contender := e.cmdA
	if key.kind == "A/B" {
		contender = e.cmdB
	}
	meth := m.method(key.method)
	if meth.isHyperfine() {
		return mixedOutcome{outcome: e.hyperfineOutcome(contender), oracle: math.NaN(), pairs: -1, seed: seed}
	}
	out, elapsed, err := m.b.pairAnalyze(meth.flags, e.cmdA, contender)
	o := mixedOutcome{outcome: comparisonOutcome(out, elapsed, err), oracle: math.NaN(), pairs: -1, seed: seed}
	if m.keep != "" && err == nil {
		kind := map[string]string{"A/A": "AA", "A/B": "AB"}[key.kind]
		name := fmt.Sprintf("%s-%s-%s-%02d-%d.ndjson", key.load, kind, key.method, len(m.results[key])+1, seed)
		if werr := os.WriteFile(filepath.Join(m.keep, name), out, 0o644); werr != nil {
			o.err = fmt.Errorf("-mixed-keep: %w", werr)
		}
	}
	if o.err == nil && key.method != "sequential" {
		o.oracle, o.pairs, o.err = oracleWidth(out)
	}
	return o
}

// startInterferer starts interfere with a seed, waits a random part of
// mixedMaxWait so the run begins at a random point of its schedule, and
// returns the function that stops it.
func (m *mixedRun) startInterferer(seed uint32) (func(), error) {
	if m.quiet {
		return func() {}, nil
	}
	// -for bounds it even if nothing stops it: the run's budget, the wait
	// and a minute.
	life := m.budget + mixedMaxWait + time.Minute
	cmd := exec.Command(m.b.tool("interfere"), "-seed", fmt.Sprint(seed), "-for", life.String(), "-dir", m.interfereDir)
	cmd.Stderr = os.Stderr
	if err := startChild(cmd); err != nil {
		return nil, fmt.Errorf("start interfere: %w", err)
	}
	time.Sleep(time.Duration(m.rng.Int64N(int64(mixedMaxWait))))
	return func() { m.stopInterferer(cmd) }, nil
}

// stopInterferer asks interfere to stop with SIGTERM, kills it if it has
// not within mixedStopWait, reaps it, and removes whatever it left in its
// directory (it should leave nothing), saying so.
func (m *mixedRun) stopInterferer(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	kill := time.AfterFunc(mixedStopWait, func() { cmd.Process.Kill() })
	err := waitChild(cmd)
	kill.Stop()
	if err != nil {
		fmt.Printf("        ! interfere: %v\n", err)
	}
	left, _ := os.ReadDir(m.interfereDir)
	for _, f := range left {
		fmt.Printf("        ! interfere left %s behind; removed\n", f.Name())
		os.RemoveAll(filepath.Join(m.interfereDir, f.Name()))
	}
}
