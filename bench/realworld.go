package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/flybench/flybench/internal/analyze"
	"github.com/flybench/flybench/internal/runner"
	"github.com/flybench/flybench/pkg/ndjson"
	"gonum.org/v1/gonum/stat/distuv"
)

// The realworld section (issue 19, section 2): identical real programs,
// none of them written here, must never look different in any mode.
const (
	rwMinAA        = 20   // A/A runs per mode the goal needs
	rwMaxExclShare = 0.05 // largest share of A/A intervals that may exclude zero
)

// rwModes are fb-pair's modes in the section's order.
var rwModes = []string{"gotest", "exec", "batch", "worker"}

// rwCatalog names every program of every mode, for -realworld-programs.
var rwCatalog = map[string][]string{
	"gotest": {"strconv-quote", "sort-ints", "sha256-1k", "go-parse"},
	"exec":   {"gzip", "jq", "python-start", "sqlite"},
	"batch":  {"python-json", "python-json-self", "perl-json"},
	"worker": {"alloc-json", "alloc-map"},
}

// realworldConfig is the section's settings, from the command line.
type realworldConfig struct {
	bin        string
	modes      []string
	programs   []string // names from rwCatalog; empty: all
	conditions []string // quiet, load
	runs       int      // A/A runs per program and path variant; 0: enough for rwMinAA per mode
	abRuns     int      // A/B runs per program
	pairFlags  string
	extra      string
	load       string        // interference command; {bin} and {seed} are filled in
	loadPhase  time.Duration // random wait after starting the load, up to this
	toolchain  string        // GOTOOLCHAIN of the gotest A/B builds
	plan       bool          // print the command, the runs and the estimate only
	keep       string        // directory for every run's analysed stream; "" keeps none
	pairSeed   uint64        // fb-pair --seed of every run; 0: a fresh one per run
}

// validate rejects settings the section cannot run with.
func (c realworldConfig) validate() error {
	if len(c.modes) == 0 {
		return fmt.Errorf("-realworld-modes: name at least one of %s", strings.Join(rwModes, ","))
	}
	for _, m := range c.modes {
		if !slices.Contains(rwModes, m) {
			return fmt.Errorf("-realworld-modes: unknown mode %q: use %s", m, strings.Join(rwModes, ","))
		}
	}
	for _, p := range c.programs {
		if m := rwModeOf(p); m != "" && !slices.Contains(c.modes, m) {
			return fmt.Errorf("-realworld-programs: %s is a %s program, and -realworld-modes leaves %s out", p, m, m)
		}
		if rwModeOf(p) == "" {
			var all []string
			for _, m := range rwModes {
				all = append(all, rwCatalog[m]...)
			}
			return fmt.Errorf("-realworld-programs: unknown program %q: choose from %s", p, strings.Join(all, ","))
		}
	}
	if len(c.conditions) == 0 {
		return fmt.Errorf("-realworld-conditions: name quiet, load or both")
	}
	for _, cond := range c.conditions {
		if cond != "quiet" && cond != "load" {
			return fmt.Errorf("-realworld-conditions: unknown condition %q: use quiet or load", cond)
		}
	}
	if c.runs < 0 || c.abRuns < 0 || c.loadPhase < 0 {
		return fmt.Errorf("-realworld-runs, -realworld-ab-runs and -realworld-load-phase must not be negative")
	}
	if slices.Contains(c.conditions, "load") {
		if _, err := runner.Split(c.load, false); err != nil {
			return fmt.Errorf("-realworld-load: %w", err)
		}
	}
	return nil
}

// rwModeOf is the mode of a catalog program, "" when there is none.
func rwModeOf(program string) string {
	for _, m := range rwModes {
		if slices.Contains(rwCatalog[m], program) {
			return m
		}
	}
	return ""
}

// wants reports whether a catalog program is selected.
func (c realworldConfig) wants(program string) bool {
	return len(c.programs) == 0 || slices.Contains(c.programs, program)
}

// selected is a mode's selected catalog programs.
func (c realworldConfig) selected(mode string) []string {
	var names []string
	for _, p := range rwCatalog[mode] {
		if c.wants(p) {
			names = append(names, p)
		}
	}
	return names
}

// command is the bench command line that reproduces the section.
func (c realworldConfig) command() string {
	args := []string{"go run ./bench -bin", shellQuote(c.bin), "-only realworld",
		"-realworld-modes", strings.Join(c.modes, ","),
		"-realworld-conditions", strings.Join(c.conditions, ","),
		"-realworld-runs", fmt.Sprint(c.runs), "-realworld-ab-runs", fmt.Sprint(c.abRuns),
		"-realworld-pairflags", shellQuote(c.pairFlags)}
	if len(c.programs) > 0 {
		args = append(args, "-realworld-programs", strings.Join(c.programs, ","))
	}
	if c.extra != "" {
		args = append(args, "-realworld-extra", shellQuote(c.extra))
	}
	if slices.Contains(c.conditions, "load") {
		args = append(args, "-realworld-load", shellQuote(c.load), "-realworld-load-phase", c.loadPhase.String())
	}
	if slices.Contains(c.modes, "gotest") {
		args = append(args, "-realworld-toolchain", c.toolchain)
	}
	if c.pairSeed != 0 {
		args = append(args, "-realworld-pair-seed", fmt.Sprint(c.pairSeed))
	}
	if c.keep != "" {
		args = append(args, "-realworld-keep", shellQuote(c.keep))
	}
	return strings.Join(args, " ")
}

// rwVariant is one comparison of a program: A/A with one path on both
// sides ("same"), A/A with a byte copy at another path ("copy"), or an A/B
// where a true difference exists.
type rwVariant struct {
	kind  string   // same, copy or A/B
	flags []string // mode flags before -realworld-pairflags
	a, c  string   // reference and contender
}

// rwProgram is one real program of a mode and its variants.
type rwProgram struct {
	mode, name string
	what       string // one line: what it runs
	abWhat     string // the A/B's true difference, "" when there is no A/B
	variants   []rwVariant
}

// rwSize is the comparison record's batch-size diagnostic, decoded from
// the raw record (not in pkg/ndjson yet); every field is optional.
type rwSize struct {
	Status         string      `json:"status"`
	EqualInPairs   *bool       `json:"equal_in_pairs"`
	PerDoublingPct *float64    `json:"per_doubling_pct"`
	CIPct          *[2]float64 `json:"ci_pct"`
	Significant    *bool       `json:"significant"`
}

// rwComparison is a comparison record with the size object; the outer
// Size wins over any size field pkg/ndjson may gain.
type rwComparison struct {
	ndjson.Comparison
	Size *rwSize `json:"size"`
}

// rwOutcome is one run's result.
type rwOutcome struct {
	outcome
	batching string
	size     *rwSize
	opNS     float64 // the reference's median time per operation
}

// rwKey names one row of the summary.
type rwKey struct {
	cond, mode, program, kind string
}

// rwBench is one realworld section's state.
type rwBench struct {
	realworldConfig
	b        *bench
	dir      string
	rng      *rand.Rand
	programs map[string][]rwProgram // per mode, after set-up
	results  map[rwKey][]rwOutcome
	goals    []string
	all      rwTally            // every condition's and mode's A/A runs
	allKind  map[string]rwTally // the same, per path variant
}

// realworld runs the section: set-up of every selected mode's programs,
// then for every condition and mode the runs, a row per program and
// variant, and the mode's goal line.
func (b *bench) realworld(c realworldConfig) {
	section("realworld (issue 19 §2): identical real programs, A/A in every mode (same path, byte copy), A/B where a true difference exists")
	r := &rwBench{realworldConfig: c, b: b, dir: filepath.Join(b.tmp, "realworld"),
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 19)), programs: map[string][]rwProgram{},
		results: map[rwKey][]rwOutcome{}, allKind: map[string]rwTally{}}
	check(os.MkdirAll(filepath.Join(r.dir, "copy"), 0o755))
	if c.keep != "" && !c.plan {
		check(os.MkdirAll(c.keep, 0o755))
	}
	var modes []string // the modes with a selected program
	for _, m := range c.modes {
		if len(c.selected(m)) > 0 {
			modes = append(modes, m)
		}
	}
	r.modes = modes
	fmt.Printf("  command: %s\n", c.command())
	fmt.Printf("  every run: fb-pair %s%s [mode flags] -- A B | fb-analyze\n", c.pairFlags, prefixSpace(c.extra))
	fmt.Printf("  estimated duration: %v (rough: per run the timed time, at least a run per batch, and the untimed start-up of every batch process, + 1 s; builds; load phases)\n",
		rwRound(r.estimate()))
	if slices.Contains(c.conditions, "load") {
		wait := "no wait after it"
		if c.loadPhase > 0 {
			wait = fmt.Sprintf("a random wait of up to %v after it", c.loadPhase)
		}
		fmt.Printf("  load: %s, started before each run (%s), its process group killed and reaped after\n",
			strings.ReplaceAll(c.load, "{bin}", c.bin), wait)
	}
	if c.plan {
		for _, mode := range r.modes {
			names := c.selected(mode)
			n := len(names)
			fmt.Printf("  %-6s %s: %d A/A runs (%d per program and path variant), %d A/B runs, per condition\n",
				mode, strings.Join(names, ","), 2*n*r.runsFor(n), r.runsFor(n), n*r.abRuns)
		}
		fmt.Println("  (-realworld-plan: nothing run)")
		return
	}
	start := time.Now()
	for _, mode := range r.modes {
		r.programs[mode] = r.setup(mode)
	}
	for _, cond := range c.conditions {
		for _, mode := range r.modes {
			r.runMode(cond, mode)
		}
	}
	fmt.Printf("\n  -- goals (no directional verdict in >= %d A/A runs per mode, at most %.0f%% of A/A intervals excluding zero)\n",
		rwMinAA, 100*rwMaxExclShare)
	for _, g := range r.goals {
		fmt.Println("  " + g)
	}
	if a := r.all; a.done > 0 {
		fmt.Printf("  all    %d A/A runs: %d false verdicts, %d intervals exclude zero = %.1f%% (same path %d/%d, byte copy %d/%d; %d or more in %d with probability %.2f at 5%%), spread %s same path, %s byte copy, %d failed\n",
			a.done, a.wrong, a.excl, 100*float64(a.excl)/float64(a.done), r.allKind["same"].excl, r.allKind["same"].done,
			r.allKind["copy"].excl, r.allKind["copy"].done, a.excl, a.done, binomialTail(a.done, a.excl, 0.05),
			r.allKind["same"].spread(), r.allKind["copy"].spread(), a.failed)
	}
	fmt.Printf("  section wall time: %v\n", time.Since(start).Round(time.Second))
	fmt.Printf("  reproduce: %s\n", c.command())
}

func prefixSpace(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// runsFor is the number of A/A runs per program and path variant of a
// mode with n programs: -realworld-runs, or enough for rwMinAA.
func (c realworldConfig) runsFor(n int) int {
	if c.runs > 0 || n == 0 {
		return c.runs
	}
	return (rwMinAA + 2*n - 1) / (2 * n)
}

// rwCost is a program's rough cost on a quiet 2-core machine, for the
// estimate: the timed time of one operation, and the untimed time of one
// batch (a test binary's start-up and probe run, a self-timed script's
// set-up), which fb-pair's budget does not count.
type rwCost struct{ op, perBatch time.Duration }

var rwCosts = map[string]rwCost{
	"strconv-quote": {300 * time.Nanosecond, 22 * time.Millisecond}, "sort-ints": {8 * time.Millisecond, 30 * time.Millisecond},
	"sha256-1k": {time.Microsecond, 22 * time.Millisecond}, "go-parse": {2500 * time.Microsecond, 25 * time.Millisecond},
	"gzip": {50 * time.Millisecond, 0}, "jq": {40 * time.Millisecond, 0},
	"python-start": {15 * time.Millisecond, 0}, "sqlite": {45 * time.Millisecond, 0},
	"python-json": {5 * time.Millisecond, 0}, "python-json-self": {2 * time.Millisecond, 30 * time.Millisecond},
	"perl-json": {5 * time.Millisecond, 0}, "alloc-json": {10 * time.Microsecond, 0}, "alloc-map": {10 * time.Microsecond, 0},
}

// estimate is a rough wall time of the section from the catalog, before
// any set-up. Per run it models fb-pair's choice of samples (auto: the
// budget over 5 ms batches, or over one operation when longer, 50 to
// 1000 per side): the timed time, at least one operation per batch, plus
// the untimed time of every batch, plus a second of warm-up and start.
func (r *rwBench) estimate() time.Duration {
	flags := strings.Fields(r.pairFlags + " " + r.extra)
	t, samples := rwMeasurementTime(flags), rwSamples(flags)
	var total time.Duration
	for _, mode := range r.modes {
		names := r.selected(mode)
		for _, p := range names {
			c := rwCosts[p]
			n := samples
			if n == 0 {
				n = int(min(max(float64(t)/(2*float64(max(5*time.Millisecond, c.op))), 50), 1000))
			}
			perRun := max(t, time.Duration(2*n)*c.op) + time.Duration(2*n)*c.perBatch + time.Second
			runs := time.Duration(2*r.runsFor(len(names)) + r.abRuns)
			for _, cond := range r.conditions {
				total += runs * perRun
				if cond == "load" {
					total += runs * r.loadPhase / 2
				}
			}
			if mode == "gotest" {
				total += 8 * time.Second // two builds
			}
		}
	}
	return total
}

// rwSamples is the samples per side fb-pair flags ask for, --samples or
// -n; 0 for auto.
func rwSamples(flags []string) int {
	n := 0
	for i, f := range flags {
		name, val, hasVal := strings.Cut(f, "=")
		if !hasVal && i+1 < len(flags) {
			val = flags[i+1]
		}
		if k, err := strconv.Atoi(val); err == nil && (name == "--samples" || name == "-n") {
			n = k
		}
	}
	return n
}

// rwRound rounds an estimate to seconds below ten minutes, else to minutes.
func rwRound(d time.Duration) time.Duration {
	if d < 10*time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Minute)
}

// rwMeasurementTime is the measurement time fb-pair flags ask for: -t or
// --measurement-time, --max-time with --until; 500 ms by default.
func rwMeasurementTime(flags []string) time.Duration {
	t, until, maxTime := 500*time.Millisecond, false, time.Minute
	for i, f := range flags {
		name, val, hasVal := strings.Cut(f, "=")
		if !hasVal && i+1 < len(flags) {
			val = flags[i+1]
		}
		d, err := time.ParseDuration(val)
		switch name {
		case "-t", "--measurement-time":
			if err == nil {
				t = d
			}
		case "--max-time":
			if err == nil {
				maxTime = d
			}
		case "--until":
			until = true
		}
	}
	if until {
		return maxTime
	}
	return t
}

// setup prepares a mode's programs, printing each one and a skip line for
// any that cannot run.
func (r *rwBench) setup(mode string) []rwProgram {
	fmt.Printf("\n  -- set-up: %s\n", mode)
	var progs []rwProgram
	switch mode {
	case "gotest":
		progs = r.setupGotest()
	case "exec":
		progs = r.setupExec()
	case "batch":
		progs = r.setupBatch()
	case "worker":
		progs = r.setupWorker()
	}
	for _, p := range progs {
		fmt.Printf("  %-16s %s\n", p.name, p.what)
		if p.abWhat != "" {
			fmt.Printf("  %-16s A/B: %s\n", "", p.abWhat)
		}
	}
	n := len(progs)
	fmt.Printf("  %d programs, %d A/A runs each per path variant (same, copy): %d A/A runs; %d A/B runs per program\n",
		n, r.runsFor(n), 2*n*r.runsFor(n), r.abRuns)
	return progs
}

// gotestBench is one standard-library benchmark of the gotest mode.
type gotestBench struct {
	name, pkg, bench, kind string
}

var gotestBenches = []gotestBench{
	{"strconv-quote", "strconv", "BenchmarkQuote", "string formatting"},
	{"sort-ints", "sort", "BenchmarkSortInts", "sorting 100,000 ints (input made with the timer stopped)"},
	{"sha256-1k", "crypto/sha256", "BenchmarkHash1K/New", "hashing 1 KiB"},
	{"go-parse", "go/parser", "BenchmarkParse", "allocation-heavy: parses go/printer/nodes.go into an AST"},
}

// setupGotest builds each benchmark's test binary once with this Go and
// once with -realworld-toolchain, and a byte copy of the first.
func (r *rwBench) setupGotest() []rwProgram {
	goTool := rwGoTool()
	dir := filepath.Join(r.dir, "gotest")
	check(os.MkdirAll(dir, 0o755))
	toolchainOK := true
	var progs []rwProgram
	for _, g := range gotestBenches {
		if !r.wants(g.name) {
			continue
		}
		pkgDir, err := exec.Command(goTool, "list", "-f", "{{.Dir}}", g.pkg).Output()
		if err != nil {
			fmt.Printf("  skip %s: go list %s: %v\n", g.name, g.pkg, err)
			continue
		}
		bin := filepath.Join(dir, g.name+".test")
		if err := rwGoTestC(goTool, "", g.pkg, bin); err != nil {
			fmt.Printf("  skip %s: %v\n", g.name, err)
			continue
		}
		wd := strings.TrimSpace(string(pkgDir))
		if err := rwHasBenchmark(bin, wd, g.bench); err != nil {
			fmt.Printf("  skip %s: %v\n", g.name, err)
			continue
		}
		cp := filepath.Join(r.dir, "copy", g.name+"-copy.test")
		check(copyFile(bin, cp))
		flags := []string{"--gotest", "--gotest-dir", wd}
		side := func(path string) string { return path + ":" + g.bench }
		p := rwProgram{mode: "gotest", name: g.name,
			what:     fmt.Sprintf("%s %s (%s), built with %s; run in %s", g.pkg, g.bench, g.kind, runtimeVersion(goTool), wd),
			variants: []rwVariant{{"same", flags, side(bin), side(bin)}, {"copy", flags, side(bin), side(cp)}}}
		if toolchainOK && r.abRuns > 0 {
			other := filepath.Join(dir, g.name+"-"+r.toolchain+".test")
			err := rwGoTestC(goTool, r.toolchain, g.pkg, other)
			if err == nil {
				err = rwHasBenchmark(other, wd, g.bench)
			}
			switch {
			case err != nil && strings.Contains(err.Error(), "GOTOOLCHAIN"):
				fmt.Printf("  skip every gotest A/B: %v\n", err)
				toolchainOK = false
			case err != nil:
				fmt.Printf("  skip the A/B of %s: %v\n", g.name, err)
			default:
				p.abWhat = fmt.Sprintf("the same benchmark built with GOTOOLCHAIN=%s (another compiler and standard library)", r.toolchain)
				p.variants = append(p.variants, rwVariant{"A/B", flags, side(bin), side(other)})
			}
		}
		progs = append(progs, p)
	}
	return progs
}

// rwGoTool is the go command: the one in PATH, else /usr/local/go's.
func rwGoTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return "/usr/local/go/bin/go"
}

// runtimeVersion is `go env GOVERSION` of a go command.
func runtimeVersion(goTool string) string {
	out, err := exec.Command(goTool, "env", "GOVERSION").Output()
	if err != nil {
		return "go (version unknown)"
	}
	return strings.TrimSpace(string(out))
}

// rwGoTestC builds pkg's test binary at out, with GOTOOLCHAIN=toolchain
// when it is set; an error of the toolchain names GOTOOLCHAIN.
func rwGoTestC(goTool, toolchain, pkg, out string) error {
	cmd := exec.Command(goTool, "test", "-c", "-o", out, pkg)
	cmd.Dir = filepath.Dir(out) // outside any module: the standard library's own
	cmd.Env = os.Environ()
	if toolchain != "" {
		cmd.Env = append(cmd.Env, "GOTOOLCHAIN="+toolchain)
	}
	msg, err := runQuiet(cmd)
	switch {
	case err != nil && toolchain != "":
		return fmt.Errorf("GOTOOLCHAIN=%s go test -c %s: %v: %s", toolchain, pkg, err, msg)
	case err != nil:
		return fmt.Errorf("go test -c %s: %v: %s", pkg, err, msg)
	}
	return nil
}

// runQuiet runs cmd and returns the last line of its combined output with
// its error.
func runQuiet(cmd *exec.Cmd) (string, error) {
	out, err := cmd.CombinedOutput()
	lines := splitList(string(out), "\n")
	if len(lines) == 0 {
		return "", err
	}
	return lines[len(lines)-1], err
}

// rwHasBenchmark checks with -test.list that bench's top-level benchmark
// exists in a test binary run in wd.
func rwHasBenchmark(bin, wd, bench string) error {
	top, _, _ := strings.Cut(bench, "/")
	cmd := exec.Command(bin, "-test.list", "^"+top+"$")
	cmd.Dir = wd
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s -test.list: %v", filepath.Base(bin), err)
	}
	if !slices.Contains(splitList(string(out), "\n"), top) {
		return fmt.Errorf("%s has no %s", filepath.Base(bin), top)
	}
	return nil
}

// copyFile copies src's bytes to dst, executable.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// debianProgram finds a program, Debian's /usr/bin one first (not a
// version manager's shim earlier in PATH), and copies it to the copy
// directory; empty paths when it is missing. Both paths name regular
// files: a symbolic link is resolved first (/usr/bin/python3 is one, to
// python3.11), because a program started through a link is not the same
// run as its target started by name. Python resolves the link at start-up
// and its json.dumps loop then ran 2.0-3.0% slower than a byte copy of the
// target with the layout fixed (fb-pair --batch --randomize-layout=false,
// 7 runs, every interval excluding zero; with the argument and environment
// bytes made equal too), against +0.3% [-0.1, +0.7] for the target started
// by its own name (README, "identical real programs").
func (r *rwBench) debianProgram(name string) (string, string) {
	path := "/usr/bin/" + name
	if st, err := os.Stat(path); err != nil || st.Mode()&0o111 == 0 {
		if path, err = exec.LookPath(name); err != nil {
			fmt.Printf("  skip: %s is not installed (make bench installs it with apt-get when run as root)\n", name)
			return "", ""
		}
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	cp := filepath.Join(r.dir, "copy", filepath.Base(path))
	if _, err := os.Stat(cp); err != nil {
		check(copyFile(path, cp))
	}
	return path, cp
}

// setupExec writes the fixed inputs and finds the Debian programs.
func (r *rwBench) setupExec() []rwProgram {
	var progs []rwProgram
	if r.wants("gzip") {
		if gz, cp := r.debianProgram("gzip"); gz != "" {
			in := filepath.Join(r.dir, "input.txt")
			check(os.WriteFile(in, rwText(1<<20), 0o644))
			cmd := func(p, level string) string { return fmt.Sprintf("%s %s -c %s", p, level, in) }
			progs = append(progs, rwProgram{mode: "exec", name: "gzip",
				what:   fmt.Sprintf("gzip -6 -c on %s (1 MiB of generated text), output to /dev/null", filepath.Base(in)),
				abWhat: "gzip -7 against gzip -6 (more search per match)",
				variants: []rwVariant{{"same", nil, cmd(gz, "-6"), cmd(gz, "-6")}, {"copy", nil, cmd(gz, "-6"), cmd(cp, "-6")},
					{"A/B", nil, cmd(gz, "-6"), cmd(gz, "-7")}}})
		}
	}
	if r.wants("jq") {
		if jq, cp := r.debianProgram("jq"); jq != "" {
			in := filepath.Join(r.dir, "input.json")
			check(os.WriteFile(in, rwJSON(4000), 0o644))
			filter := shellQuote("[.items[] | select(.value % 7 == 3) | {id, name, tags}]")
			cmd := func(p, opts string) string { return fmt.Sprintf("%s %s %s %s", p, opts, filter, in) }
			progs = append(progs, rwProgram{mode: "exec", name: "jq",
				what:   fmt.Sprintf("jq -c %s on %s (4,000 generated items)", filter, filepath.Base(in)),
				abWhat: "jq -c -S (keys sorted on output) against jq -c",
				variants: []rwVariant{{"same", nil, cmd(jq, "-c"), cmd(jq, "-c")}, {"copy", nil, cmd(jq, "-c"), cmd(cp, "-c")},
					{"A/B", nil, cmd(jq, "-c"), cmd(jq, "-c -S")}}})
		}
	}
	if r.wants("python-start") {
		if py, cp := r.debianProgram("python3"); py != "" {
			progs = append(progs, rwProgram{mode: "exec", name: "python-start",
				what:   fmt.Sprintf("%s -c pass: the interpreter's start-up", py),
				abWhat: "python3 -S -c pass (no site module) against python3 -c pass",
				variants: []rwVariant{{"same", nil, py + " -c pass", py + " -c pass"}, {"copy", nil, py + " -c pass", cp + " -c pass"},
					{"A/B", nil, py + " -c pass", py + " -S -c pass"}}})
		}
	}
	if r.wants("sqlite") {
		if sq, cp := r.debianProgram("sqlite3"); sq != "" {
			q, qMore := filepath.Join(r.dir, "query.sql"), filepath.Join(r.dir, "query-more.sql")
			check(os.WriteFile(q, []byte(rwSQL(20000)), 0o644))
			check(os.WriteFile(qMore, []byte(rwSQL(22000)), 0o644))
			input := []string{"--input", q}
			read := func(p, file string) string { return fmt.Sprintf("%s :memory: %s", p, shellQuote(".read "+file)) }
			progs = append(progs, rwProgram{mode: "exec", name: "sqlite",
				what:   fmt.Sprintf("sqlite3 :memory: < %s (20,000 rows: insert, index, group, self-join)", filepath.Base(q)),
				abWhat: fmt.Sprintf("sqlite3 :memory: '.read %s' (22,000 rows) against '.read %s' (--input is one file for both sides)", filepath.Base(qMore), filepath.Base(q)),
				variants: []rwVariant{{"same", input, sq + " :memory:", sq + " :memory:"}, {"copy", input, sq + " :memory:", cp + " :memory:"},
					{"A/B", nil, read(sq, q), read(sq, qMore)}}})
		}
	}
	return progs
}

// rwWords is the vocabulary of the generated text.
var rwWords = strings.Fields(`the of and to in is that for it as was with be by on not he this are or his from at which
but have an they you were her she there been one all we their has would when if so no will can more who
other about time out up into what some them only then new also could two any see may like our over these such
benchmark compiler runtime kernel scheduler process thread memory cache branch page fault interrupt latency
throughput allocation collector heap stack pointer register vector buffer stream record sample interval
median variance estimate confidence threshold verdict paired order shuffled drift noise machine cluster`)

// rwText is size bytes of deterministic text: lines of words from rwWords
// and numbers, chosen by a fixed xorshift sequence.
func rwText(size int) []byte {
	var sb strings.Builder
	x := uint64(0x2545f4914f6cdd1d)
	next := func() uint64 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	for sb.Len() < size {
		words := 6 + int(next()%12)
		for i := range words {
			if i > 0 {
				sb.WriteByte(' ')
			}
			if next()%9 == 0 {
				fmt.Fprintf(&sb, "%d", next()%100000)
			} else {
				sb.WriteString(rwWords[next()%uint64(len(rwWords))])
			}
		}
		sb.WriteString(".\n")
	}
	return []byte(sb.String()[:size])
}

// rwJSON is a deterministic JSON document of n items.
func rwJSON(n int) []byte {
	type item struct {
		ID    int      `json:"id"`
		Name  string   `json:"name"`
		Value int      `json:"value"`
		Score float64  `json:"score"`
		Tags  []string `json:"tags"`
		Owner struct {
			Login string `json:"login"`
			Admin bool   `json:"admin"`
		} `json:"owner"`
	}
	doc := struct {
		Version int    `json:"version"`
		Items   []item `json:"items"`
	}{Version: 3}
	x := uint64(0x9e3779b97f4a7c15)
	for i := range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		it := item{ID: i, Name: fmt.Sprintf("item-%05d", i), Value: int(x % 1000), Score: float64(x%10000) / 100,
			Tags: []string{rwWords[x%uint64(len(rwWords))], rwWords[(x>>16)%uint64(len(rwWords))]}}
		it.Owner.Login = fmt.Sprintf("user%d", x%500)
		it.Owner.Admin = x%11 == 0
		doc.Items = append(doc.Items, it)
	}
	out, err := json.Marshal(doc)
	check(err)
	return append(out, '\n')
}

// rwSQL is the sqlite query file: a table of rows rows built by a
// recursive CTE, an index, a grouping and a self-join.
func rwSQL(rows int) string {
	return fmt.Sprintf(`CREATE TABLE t(id INTEGER PRIMARY KEY, grp INTEGER, name TEXT, v REAL);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < %d)
INSERT INTO t SELECT x, x %% 97, 'name-' || (x * 7919 %% 100003), (x * 37 %% 1000) / 10.0 FROM c;
CREATE INDEX t_grp ON t(grp);
SELECT grp, count(*), round(avg(v), 3), max(name) FROM t GROUP BY grp ORDER BY 3 DESC LIMIT 5;
SELECT count(*) FROM t a JOIN t b ON a.id = b.id + 1 WHERE a.grp = b.grp + 1;
`, rows)
}

// rwPythonJSON is the batch mode's Python program: its set-up imports json
// and builds a document of 1000 records, then it serializes the document N
// times (argv[1]); "sort" sorts the keys (the A/B), "self" reports the
// loop's own elapsed time on the report channel (fb-worker(7), BATCH).
const rwPythonJSON = `import json, os, sys, time
doc = {"version": 3, "records": [{"id": i, "name": "record-%05d" % i, "value": (i * 7919) % 1000,
       "score": ((i * 104729) % 10000) / 100.0, "tags": ["t%d" % (i % 13), "u%d" % (i % 7)],
       "owner": {"login": "user%d" % (i % 50), "admin": i % 11 == 0}} for i in range(1000)]}
n = int(sys.argv[1])
opts = sys.argv[2:]
sort_keys = "sort" in opts
start = time.perf_counter_ns()
for _ in range(n):
    json.dumps(doc, sort_keys=sort_keys)
elapsed = time.perf_counter_ns() - start
if "self" in opts:
    os.write(int(os.environ["FLYBENCH_REPORT_FD"]), b"done %d elapsed_ns=%d\n" % (n, elapsed))
`

// rwPerlJSON is the batch mode's Perl program: its set-up loads JSON::PP
// (pure Perl, in Perl's core) and builds the same kind of document, then
// it encodes it N times; "sort" makes the encoder canonical (the A/B).
const rwPerlJSON = `use strict; use warnings; use JSON::PP;
my @records = map { { id => $_, name => sprintf("record-%05d", $_), value => ($_ * 7919) % 1000,
    score => (($_ * 104729) % 10000) / 100, tags => ["t" . ($_ % 13), "u" . ($_ % 7)],
    owner => { login => "user" . ($_ % 50), admin => ($_ % 11 == 0 ? JSON::PP::true : JSON::PP::false) } } } 0 .. 59;
my $doc = { version => 3, records => \@records };
my $n = shift @ARGV;
my $sort = grep { $_ eq "sort" } @ARGV;
my $js = JSON::PP->new->canonical($sort ? 1 : 0);
my $len = 0;
$len += length $js->encode($doc) for 1 .. $n;
`

// setupBatch writes the batch programs' scripts and finds the interpreters.
func (r *rwBench) setupBatch() []rwProgram {
	var progs []rwProgram
	flags := []string{"--batch"}
	if r.wants("python-json") || r.wants("python-json-self") {
		if py, cp := r.debianProgram("python3"); py != "" {
			script := filepath.Join(r.dir, "dumps.py")
			check(os.WriteFile(script, []byte(rwPythonJSON), 0o644))
			for _, self := range []bool{false, true} {
				name, opt, how := "python-json", "", "timed by wall time, set-up (start-up, import, document) included"
				if self {
					name, opt, how = "python-json-self", " self", "the loop's own time reported on fd 3, set-up outside it"
				}
				if !r.wants(name) {
					continue
				}
				cmd := func(p, o string) string { return fmt.Sprintf("%s %s {n}%s", p, script, o) }
				progs = append(progs, rwProgram{mode: "batch", name: name,
					what:   fmt.Sprintf("python3 dumps.py {n}%s: json.dumps of a 1000-record document N times; %s", opt, how),
					abWhat: "json.dumps(sort_keys=True) against json.dumps",
					variants: []rwVariant{{"same", flags, cmd(py, opt), cmd(py, opt)}, {"copy", flags, cmd(py, opt), cmd(cp, opt)},
						{"A/B", flags, cmd(py, opt), cmd(py, opt+" sort")}}})
			}
		}
	}
	if r.wants("perl-json") {
		if pl, cp := r.debianProgram("perl"); pl != "" {
			script := filepath.Join(r.dir, "encode.pl")
			check(os.WriteFile(script, []byte(rwPerlJSON), 0o644))
			cmd := func(p, o string) string { return fmt.Sprintf("%s %s {n}%s", p, script, o) }
			progs = append(progs, rwProgram{mode: "batch", name: "perl-json",
				what:   "perl encode.pl {n}: JSON::PP encode of a 60-record document N times; timed by wall time, set-up included",
				abWhat: "JSON::PP->canonical(1) (sorted keys) against canonical(0)",
				variants: []rwVariant{{"same", flags, cmd(pl, ""), cmd(pl, "")}, {"copy", flags, cmd(pl, ""), cmd(cp, "")},
					{"A/B", flags, cmd(pl, ""), cmd(pl, " sort")}}})
		}
	}
	return progs
}

// setupWorker finds allocworker in -bin and copies it.
func (r *rwBench) setupWorker() []rwProgram {
	w := r.b.tool("allocworker")
	if _, err := os.Stat(w); err != nil {
		fmt.Printf("  skip every worker program: %s missing (make build builds it)\n", w)
		return nil
	}
	cp := filepath.Join(r.dir, "copy", "allocworker")
	check(copyFile(w, cp))
	var progs []rwProgram
	for _, c := range []struct{ name, aCase, bCase, what, abWhat string }{
		{"alloc-json", "json", "json-18", "allocworker case json: encoding/json.Marshal of a fixed 16-item order per iteration",
			"case json-18 (18 items) against json"},
		{"alloc-map", "map64", "map72", "allocworker case map64: a 64-entry map[string]int built from empty per iteration",
			"case map72 (72 entries) against map64"},
	} {
		if !r.wants(c.name) {
			continue
		}
		aa := []string{"--worker", "--case", c.aCase}
		ab := []string{"--worker", "--case", c.aCase, "--case", c.bCase}
		progs = append(progs, rwProgram{mode: "worker", name: c.name, what: c.what + " (two worker processes)", abWhat: c.abWhat,
			variants: []rwVariant{{"same", aa, w, w}, {"copy", aa, w, cp}, {"A/B", ab, w, w}}})
	}
	return progs
}

// runMode runs one mode's programs under one condition: round by round,
// every program's variants in a rotating order, then the mode's table.
func (r *rwBench) runMode(cond, mode string) {
	progs := r.programs[mode]
	if len(progs) == 0 {
		fmt.Printf("\n  -- %s, %s: no program to run\n", cond, mode)
		return
	}
	aaRuns := r.runsFor(len(progs))
	fmt.Printf("\n  -- %s, %s: %d programs x (same, copy) x %d A/A runs, %d A/B runs each\n", cond, mode, len(progs), aaRuns, r.abRuns)
	fmt.Println("  per run: verdict letter (R reference faster, C contender faster, E practically equivalent, I inconclusive), change of B vs A with its 95% interval, batching, size diagnostic, fb-pair's wall time")
	for round := 0; round < max(aaRuns, r.abRuns); round++ {
		for pi, p := range progs {
			for i := range p.variants {
				v := p.variants[(round+pi+i)%len(p.variants)]
				if (v.kind == "A/B" && round >= r.abRuns) || (v.kind != "A/B" && round >= aaRuns) {
					continue
				}
				o, seed := r.runOne(cond, v, fmt.Sprintf("%s-%s-%s-%s-%02d", cond, mode, p.name, strings.ReplaceAll(v.kind, "/", ""), round+1))
				key := rwKey{cond, mode, p.name, v.kind}
				r.results[key] = append(r.results[key], o)
				fmt.Printf("  %2d %-16s %-4s %s%s\n", round+1, p.name, v.kind, o.line(), seed)
			}
		}
	}
	r.printMode(cond, mode, progs)
}

// runOne runs one variant, under a fresh load for the load condition, with
// its own fb-pair seed (the layout paddings, the order of each pair and the
// shared batch sizes are drawn from it), and returns its outcome and the
// seeds for the run's line. With -realworld-keep the analysed stream is
// written to name.ndjson there.
func (r *rwBench) runOne(cond string, v rwVariant, name string) (rwOutcome, string) {
	pairSeed := r.pairSeed
	if pairSeed == 0 {
		pairSeed = 1 + r.rng.Uint64N(1<<31)
	}
	seedNote := fmt.Sprintf("  pair-seed=%d", pairSeed)
	if cond == "load" {
		stop, seed, err := r.startLoad()
		if err != nil {
			return rwOutcome{outcome: outcome{err: err}}, seedNote
		}
		defer stop()
		if seed != 0 {
			seedNote += fmt.Sprintf(" load-seed=%d", seed)
		}
	}
	flags := append(append(append([]string(nil), v.flags...), strings.Fields(r.pairFlags)...), strings.Fields(r.extra)...)
	if !slices.ContainsFunc(flags, func(f string) bool { return f == "--seed" || strings.HasPrefix(f, "--seed=") }) {
		flags = append(flags, "--seed", fmt.Sprint(pairSeed))
	} else {
		seedNote = "  pair-seed from the flags" + strings.TrimPrefix(seedNote, fmt.Sprintf("  pair-seed=%d", pairSeed))
	}
	out, elapsed, err := r.b.pairAnalyze(flags, v.a, v.c)
	o := rwOutcome{outcome: outcome{elapsed: elapsed, err: err}}
	if err != nil {
		return o, seedNote
	}
	if r.keep != "" {
		if err := os.WriteFile(filepath.Join(r.keep, name+".ndjson"), out, 0o644); err != nil {
			o.err = fmt.Errorf("-realworld-keep: %w", err)
			return o, seedNote
		}
	}
	o.err = scanRecords(out, func(typ string, raw []byte) error {
		if typ == ndjson.TypeSummary && o.opNS == 0 {
			var s ndjson.Summary
			if err := json.Unmarshal(raw, &s); err != nil {
				return fmt.Errorf("summary record: %w", err)
			}
			if s.Case == 0 {
				o.opNS = s.Median
			}
		}
		if typ != ndjson.TypeComparison {
			return nil
		}
		var cmp rwComparison
		if err := json.Unmarshal(raw, &cmp); err != nil {
			return fmt.Errorf("comparison record: %w", err)
		}
		o.verdict, o.change, o.ci = string(cmp.Verdict), cmp.ChangePct, cmp.ChangeCI
		o.batching, o.size = cmp.Batching, cmp.Size
		return nil
	})
	if o.err == nil && o.verdict == "" {
		o.err = fmt.Errorf("fb-analyze wrote no comparison record")
	}
	return o, seedNote
}

// startLoad starts -realworld-load with {bin} and a fresh {seed} filled
// in, in its own process group, waits a random part of -realworld-load-phase,
// and returns the function that kills the group and reaps the command, and
// the seed when the command has a {seed}.
func (r *rwBench) startLoad() (func(), uint64, error) {
	var seed uint64
	line := strings.ReplaceAll(r.load, "{bin}", r.bin)
	if strings.Contains(line, "{seed}") {
		seed = r.rng.Uint64N(1 << 31)
		line = strings.ReplaceAll(line, "{seed}", fmt.Sprint(seed))
	}
	argv, err := runner.Split(line, false)
	if err != nil {
		return nil, 0, fmt.Errorf("-realworld-load: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := startChild(cmd); err != nil {
		return nil, 0, fmt.Errorf("start load %q: %w", line, err)
	}
	if r.loadPhase > 0 {
		time.Sleep(time.Duration(r.rng.Int64N(int64(r.loadPhase))))
	}
	return func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		stopChild(cmd)
	}, seed, nil
}

// line is a run's one-line report.
func (o rwOutcome) line() string {
	if o.err != nil {
		return "error: " + o.err.Error()
	}
	return fmt.Sprintf("%s %+6.2f%% [%+6.2f%%, %+6.2f%%]  A %s/op  batching %s  size %s  %v",
		verdictLetter(o.verdict), o.change, o.ci[0], o.ci[1], rwDuration(o.opNS), orDash(o.batching), o.size.describe(),
		o.elapsed.Round(100*time.Millisecond))
}

// rwDuration formats nanoseconds with three significant digits.
func rwDuration(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.3g ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.3g ns", ns)
}

// verdictLetter is R, C, E or I for a verdict, "?" for another.
func verdictLetter(v string) string {
	switch v {
	case string(ndjson.VerdictReferenceFaster):
		return "R"
	case string(ndjson.VerdictContenderFaster):
		return "C"
	case string(ndjson.VerdictEquivalent):
		return "E"
	case string(ndjson.VerdictInconclusive):
		return "I"
	}
	return "?"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// describe is the size diagnostic on one line, "-" when absent.
func (s *rwSize) describe() string {
	if s == nil {
		return "-"
	}
	parts := []string{orDash(s.Status)}
	if s.EqualInPairs != nil {
		parts = append(parts, fmt.Sprintf("equal_in_pairs=%v", *s.EqualInPairs))
	}
	if s.PerDoublingPct != nil {
		parts = append(parts, fmt.Sprintf("%+.2f%%/doubling", *s.PerDoublingPct))
	}
	if s.CIPct != nil {
		parts = append(parts, fmt.Sprintf("[%+.2f%%, %+.2f%%]", s.CIPct[0], s.CIPct[1]))
	}
	if s.Significant != nil && *s.Significant {
		parts = append(parts, "significant")
	}
	return strings.Join(parts, " ")
}

// rwTally is a summary row over runs.
type rwTally struct {
	done, failed, wrong, excl, signif int
	verdicts                          map[string]int
	changes, doublings, secs          []float64
	scatterChanges, scatterWidths     []float64 // each run's change and its interval's width, for the scatter
	status                            map[string]int
}

func rwTallyOf(outs []rwOutcome) rwTally {
	t := rwTally{verdicts: map[string]int{}, status: map[string]int{}}
	for _, o := range outs {
		if o.elapsed > 0 {
			t.secs = append(t.secs, o.elapsed.Seconds())
		}
		if o.err != nil {
			t.failed++
			continue
		}
		t.done++
		t.verdicts[o.verdict]++
		if o.verdict == string(ndjson.VerdictReferenceFaster) || o.verdict == string(ndjson.VerdictContenderFaster) {
			t.wrong++
		}
		if o.ci[0] > 0 || o.ci[1] < 0 {
			t.excl++
		}
		t.changes = append(t.changes, o.change)
		t.scatterChanges, t.scatterWidths = append(t.scatterChanges, o.change), append(t.scatterWidths, o.ci[1]-o.ci[0])
		if s := o.size; s != nil {
			t.status[orDash(s.Status)]++
			if s.PerDoublingPct != nil {
				t.doublings = append(t.doublings, *s.PerDoublingPct)
			}
			if s.Significant != nil && *s.Significant {
				t.signif++
			}
		}
	}
	return t
}

func (t rwTally) add(u rwTally) rwTally {
	t.done += u.done
	t.failed += u.failed
	t.wrong += u.wrong
	t.excl += u.excl
	t.signif += u.signif
	t.scatterChanges = append(t.scatterChanges[:len(t.scatterChanges):len(t.scatterChanges)], u.scatterChanges...)
	t.scatterWidths = append(t.scatterWidths[:len(t.scatterWidths):len(t.scatterWidths)], u.scatterWidths...)
	return t
}

// spread is fb-analyze's scatter of the runs (analyze.Scatter): the root
// mean square of each change over its 95% interval's standard error,
// about 1 when A/A intervals are as wide as the estimates' run-to-run
// spread, above 1 when they are too narrow.
func (t rwTally) spread() string {
	s, _, ok := analyze.Scatter(t.scatterChanges, t.scatterWidths, 95)
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2f", s)
}

// sizeCell is the size columns: the statuses seen, the median change per
// doubling and the runs where it was significant.
func (t rwTally) sizeCell() string {
	if len(t.status) == 0 {
		return "-"
	}
	var st []string
	for k, n := range t.status {
		st = append(st, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(st)
	per := "-"
	if len(t.doublings) > 0 {
		per = fmt.Sprintf("%+.2f%%/dbl", median(t.doublings))
	}
	return fmt.Sprintf("%s; med %s; significant %d/%d", strings.Join(st, ", "), per, t.signif, t.done)
}

func (t rwTally) wall() string {
	if len(t.secs) == 0 {
		return "-"
	}
	return (time.Duration(median(t.secs)*1e9) * time.Nanosecond).Round(100 * time.Millisecond).String()
}

// printMode prints a mode's table under one condition and records its goal.
func (r *rwBench) printMode(cond, mode string, progs []rwProgram) {
	fmt.Printf("\n  %-16s %-4s %5s %6s %8s %6s %7s %8s  %s\n", "program", "kind", "runs", "false", "excl. 0", "spread", "failed", "wall", "size (statuses; median change per doubling; significant)")
	var total rwTally
	byKind := map[string]rwTally{}
	for _, p := range progs {
		for _, kind := range []string{"same", "copy"} {
			t := rwTallyOf(r.results[rwKey{cond, mode, p.name, kind}])
			total = total.add(t)
			byKind[kind] = byKind[kind].add(t)
			fmt.Printf("  %-16s %-4s %5d %6d %8d %6s %7d %8s  %s\n", p.name, kind, t.done, t.wrong, t.excl, t.spread(), t.failed, t.wall(), t.sizeCell())
		}
		outs := r.results[rwKey{cond, mode, p.name, "A/B"}]
		if len(outs) == 0 {
			continue
		}
		t := rwTallyOf(outs)
		fmt.Printf("  %-16s %-4s %5d  R %d C %d E %d I %d  median change %s  failed %d  wall %s  size %s\n", p.name, "A/B", t.done,
			t.verdicts[string(ndjson.VerdictReferenceFaster)], t.verdicts[string(ndjson.VerdictContenderFaster)],
			t.verdicts[string(ndjson.VerdictEquivalent)], t.verdicts[string(ndjson.VerdictInconclusive)],
			pctOrDash(t.changes), t.failed, t.wall(), t.sizeCell())
	}
	share := 0.0
	if total.done > 0 {
		share = float64(total.excl) / float64(total.done)
	}
	judged := "goal met"
	switch {
	case total.done < rwMinAA:
		judged = fmt.Sprintf("not judged: fewer than %d A/A runs", rwMinAA)
	case total.wrong > 0 || share > rwMaxExclShare:
		judged = "GOAL MISSED"
	}
	g := fmt.Sprintf("%-6s %-7s %3d A/A runs: %d false verdicts (goal 0), %d intervals exclude zero = %.1f%% (goal <= %.0f%%; same path %d/%d, byte copy %d/%d; a calibrated 95%% interval gives %d or more in %d with probability %.2f), spread %s (1 when calibrated), %d failed, %d size significant: %s",
		cond, mode, total.done, total.wrong, total.excl, 100*share, 100*rwMaxExclShare,
		byKind["same"].excl, byKind["same"].done, byKind["copy"].excl, byKind["copy"].done,
		total.excl, total.done, binomialTail(total.done, total.excl, 0.05), total.spread(), total.failed, total.signif, judged)
	r.all = r.all.add(total)
	for kind, t := range byKind {
		r.allKind[kind] = r.allKind[kind].add(t)
	}
	fmt.Println("  total " + g)
	r.goals = append(r.goals, g)
}

// binomialTail is the probability of k or more successes in n trials of
// probability p: how often a calibrated interval gives that many exclusions.
func binomialTail(n, k int, p float64) float64 {
	if k <= 0 {
		return 1
	}
	return 1 - distuv.Binomial{N: float64(n), P: p}.CDF(float64(k-1))
}

func pctOrDash(x []float64) string {
	if len(x) == 0 || math.IsNaN(median(x)) {
		return "-"
	}
	return fmt.Sprintf("%+.2f%%", median(x))
}
