package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/flybench/flybench/pkg/ndjson"
)

// pressureConfig is the unit-filtering section's settings (issue 22 item
// 2): runs collected once under the mixed section's interferer with
// --watch observe, then analysed again without the units each rule
// flags.
type pressureConfig struct {
	runs     int           // A/B and A/A runs per program
	budget   time.Duration // wall time of one comparison (fb-pair -t 90% of it)
	truth    time.Duration // fb-pair -t of each program's quiet run
	programs []string      // of mixedPrograms
}

func (c pressureConfig) validate() error {
	if c.runs < 1 || c.budget < 2*time.Second || c.truth <= 0 {
		return fmt.Errorf("-pressure-runs must be at least 1, -pressure-budget at least 2s, -pressure-truth positive")
	}
	return oneOf("-pressure-programs", c.programs, mixedPrograms)
}

// unitRule flags the units interference hit by one signal over a limit:
// a window's foreign CPU load (above its allowance), its pressure stall
// shares (cpu, memory, io "some"), or a sample's own CPU time as a share
// of its wall time (below the limit).
type unitRule struct {
	name  string
	limit float64
	flag  func(r unitRecord, limit float64) bool
}

// unitRecord is what the rules read of a window or sample record.
type unitRecord struct {
	Type         string           `json:"type"`
	Unit         int              `json:"unit"`
	FirstUnit    int              `json:"first_unit"`
	Units        int              `json:"units"`
	ForeignPct   float64          `json:"foreign_pct"`
	AllowancePct float64          `json:"allowance_pct"`
	Pressure     *ndjson.Pressure `json:"pressure"`
	Tele         *struct {
		CPUPct *float64 `json:"cpu_pct"`
	} `json:"tele"`
}

func windowRule(name string, limit float64, value func(r unitRecord) (float64, bool)) unitRule {
	return unitRule{name, limit, func(r unitRecord, limit float64) bool {
		v, ok := value(r)
		return r.Type == ndjson.TypeWindow && ok && v > limit
	}}
}

func psi(get func(p *ndjson.Pressure) float64) func(r unitRecord) (float64, bool) {
	return func(r unitRecord) (float64, bool) {
		if r.Pressure == nil {
			return 0, false
		}
		return get(r.Pressure), true
	}
}

// pressureRules are the rules tried, each at a few limits: none is every
// unit kept, as fb-pair keeps them.
func pressureRules() []unitRule {
	rules := []unitRule{{"none", 0, func(unitRecord, float64) bool { return false }}}
	foreign := func(r unitRecord) (float64, bool) { return r.ForeignPct - r.AllowancePct, true }
	for _, l := range []float64{10, 25} {
		rules = append(rules, windowRule("foreign CPU % above allowance >", l, foreign))
	}
	for _, l := range []float64{15, 30, 50} {
		rules = append(rules, windowRule("PSI cpu some % >", l, psi(func(p *ndjson.Pressure) float64 { return p.CPUSomePct })))
	}
	rules = append(rules, windowRule("PSI memory some % >", 1, psi(func(p *ndjson.Pressure) float64 { return p.MemorySomePct })))
	rules = append(rules, windowRule("PSI io some % >", 5, psi(func(p *ndjson.Pressure) float64 { return p.IOSomePct })))
	for _, l := range []float64{90, 97} {
		rules = append(rules, unitRule{"own CPU % of wall <", l, func(r unitRecord, limit float64) bool {
			return r.Type == ndjson.TypeSample && r.Tele != nil && r.Tele.CPUPct != nil && *r.Tele.CPUPct < limit
		}})
	}
	return rules
}

// pressure runs the section: per program a quiet truth, then A/B and A/A
// runs under a fresh interferer each, every stream kept; then per rule
// every stream analysed without its flagged units (both sides of a pair
// go together), and a table: units kept, median width, coverage of the
// truth, verdicts. Dropping a unit after the fact is what retaking it
// would leave at the same wall time (a retake spends the time again), so
// the table answers whether the units interference hit carry less
// information than the others.
func (b *bench) pressure(c pressureConfig) {
	section("interference-aware filtering (issue 22 item 2): the same runs analysed without the units each signal flags")
	fmt.Printf("  command: go run ./bench -bin %s -only pressure -pressure-runs %d -pressure-budget %v -pressure-truth %v -pressure-programs %s\n",
		b.bin, c.runs, c.budget, c.truth, strings.Join(c.programs, ","))
	m := &mixedRun{mixedConfig: mixedConfig{programs: c.programs, budget: c.budget}, b: b,
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 22)), interfereDir: filepath.Join(b.tmp, "interfere-pressure"),
		ioDir: filepath.Join(b.tmp, "iobound-pressure")}
	check(os.MkdirAll(m.interfereDir, 0o755))
	check(os.MkdirAll(m.ioDir, 0o755))
	t := fmt.Sprintf("%dms", c.budget.Milliseconds()*9/10)
	fmt.Printf("  runs: fb-pair -t %s --watch observe --seed S -- A B under interfere -seed S (a random 0-%v wait first); truth: fb-pair -t %v --watch observe, quiet\n", t, mixedMaxWait, c.truth)
	rules := pressureRules()
	for _, p := range m.commands() {
		fmt.Printf("\n  -- %s: %s\n", p.name, p.what)
		truthStream, err := b.pairStream([]string{"-t", c.truth.String(), "--watch", "observe"}, p.a, p.b)
		check(err)
		truth := b.reanalyse(truthStream, rules[0])
		check(truth.err)
		fmt.Printf("  truth (quiet, -t %v): %+.3f%% [%+.3f, %+.3f]\n", c.truth, truth.change, truth.ci[0], truth.ci[1])
		streams := map[string][][]byte{}
		for i := range c.runs {
			for _, kind := range []string{"A/B", "A/A"} {
				seed := m.rng.Uint32()
				stop, err := m.startInterferer(seed)
				check(err)
				contender := p.b
				if kind == "A/A" {
					contender = p.a
				}
				s, err := b.pairStream([]string{"-t", t, "--watch", "observe", "--seed", fmt.Sprint(seed)}, p.a, contender)
				stop()
				if err != nil {
					fmt.Printf("  %s run %d: %v\n", kind, i+1, err)
					continue
				}
				streams[kind] = append(streams[kind], s)
			}
		}
		fmt.Printf("  %-36s | %-50s | %s\n", "units dropped when", "A/B: units kept, median width, cover, found", "A/A: median width, excluding 0, verdicts")
		for _, r := range rules {
			ab, aa := b.filterRow(streams["A/B"], r, truth.change), b.filterRow(streams["A/A"], r, 0)
			label := "(none dropped)"
			if r.name != "none" {
				label = fmt.Sprintf("%s %g", r.name, r.limit)
			}
			fmt.Printf("  %-36s | kept %3.0f%% width %5.2f cover %d/%d found %d       | width %5.2f excl %d/%d verdicts %d\n",
				label, 100*ab.kept, ab.width, ab.cover, ab.n, ab.found, aa.width, aa.excl, aa.n, aa.verdicts)
		}
	}
}

// filterTally is one rule's row for one kind of run.
type filterTally struct {
	kept, width                     float64
	n, cover, found, excl, verdicts int
}

// filterRow analyses every stream without the units r flags and tallies
// the outcomes against truth.
func (b *bench) filterRow(streams [][]byte, r unitRule, truth float64) filterTally {
	var t filterTally
	var widths, kept []float64
	for _, s := range streams {
		o := b.reanalyse(s, r)
		if o.err != nil {
			continue
		}
		t.n++
		widths, kept = append(widths, o.ci[1]-o.ci[0]), append(kept, o.kept)
		if o.ci[0] <= truth && truth <= o.ci[1] {
			t.cover++
		}
		if !(o.ci[0] <= 0 && 0 <= o.ci[1]) {
			t.excl++
		}
		switch o.verdict {
		case "reference faster":
			t.found++
			t.verdicts++
		case "contender faster":
			t.verdicts++
		}
	}
	t.width, t.kept = math.NaN(), 0
	if len(widths) > 0 {
		t.width, t.kept = median(widths), median(kept)
	}
	return t
}

// filtered is a re-analysed stream's outcome and the share of its units
// kept.
type filtered struct {
	outcome
	kept float64
}

// reanalyse drops the sample records of every unit r flags from stream
// and runs fb-analyze on the rest.
func (b *bench) reanalyse(stream []byte, r unitRule) filtered {
	lines := bytes.SplitAfter(stream, []byte("\n"))
	recs := make([]unitRecord, len(lines))
	drop, all := map[int]bool{}, map[int]bool{}
	for i, l := range lines {
		if len(bytes.TrimSpace(l)) == 0 || json.Unmarshal(l, &recs[i]) != nil {
			continue
		}
		rec := recs[i]
		if rec.Type == ndjson.TypeSample {
			all[rec.Unit] = true
		}
		if r.flag(rec, r.limit) {
			if rec.Type == ndjson.TypeWindow {
				for u := rec.FirstUnit; u < rec.FirstUnit+rec.Units; u++ {
					drop[u] = true
				}
			} else {
				drop[rec.Unit] = true
			}
		}
	}
	var in bytes.Buffer
	kept := map[int]bool{}
	for i, l := range lines {
		if recs[i].Type == ndjson.TypeSample {
			if drop[recs[i].Unit] {
				continue
			}
			kept[recs[i].Unit] = true
		}
		in.Write(l)
	}
	cmd := exec.Command(b.tool("fb-analyze"))
	var out, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &in, &out, &stderr
	err := startChild(cmd)
	if err == nil {
		err = waitChild(cmd)
	}
	if err != nil {
		err = toolError("fb-analyze", err, stderr.Bytes())
	}
	f := filtered{outcome: comparisonOutcome(out.Bytes(), 0, err)}
	if len(all) > 0 {
		f.kept = float64(len(kept)) / float64(len(all))
	}
	return f
}

// pairStream runs fb-pair with flags on a and c and returns its stream.
func (b *bench) pairStream(flags []string, a, c string) ([]byte, error) {
	args := append(append([]string{"--progress", "none"}, flags...), "--", a, c)
	cmd := exec.Command(b.tool("fb-pair"), args...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := startChild(cmd)
	if err == nil {
		err = waitChild(cmd)
	}
	if err != nil {
		return nil, toolError("fb-pair", err, stderr.Bytes())
	}
	return out.Bytes(), nil
}
